/** A streaming fetch: the response, and its body's blocks (each ending with a blank line) as they arrive. */
export async function openStream(url: string, init: RequestInit = {}) {
  const leave = new AbortController();
  const response = await fetch(url, { ...init, signal: leave.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  return {
    response,
    /** The next block (`…\n\n`) and when it arrived; `null` at the end. */
    async next(): Promise<{ block: string; at: number } | null> {
      for (;;) {
        const end = buffered.indexOf("\n\n");
        if (end !== -1) {
          const block = buffered.slice(0, end + 2);
          buffered = buffered.slice(end + 2);
          return { block, at: performance.now() };
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffered += decoder.decode(value, { stream: true });
      }
    },
    /** The client leaves. */
    leave: () => leave.abort(),
  };
}
