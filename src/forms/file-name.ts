/*
 * A client's file name, made safe to show and to use as the last step of a path (RFC 7578 §4.2: a
 * receiver must not use it as it is). Browsers send the bare name; an old client may send a path.
 */

/**
 * The file name without directories (everything up to the last `/` or `\` dropped), or a sentence
 * saying why it is refused: a control character (NUL, CR, LF, … DEL), or a name that is `.` or `..`.
 * An empty name (an `<input type="file">` left empty) stays empty.
 */
export function safeFileName(raw: string): string | { readonly refused: string } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
  const control = /[\u0000-\u001f\u007f]/.exec(raw);
  if (control !== null)
    return {
      refused: `its file name has a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")})`,
    };
  const name = raw.slice(Math.max(raw.lastIndexOf("/"), raw.lastIndexOf("\\")) + 1);
  if (name === "." || name === "..") return { refused: `its file name ${JSON.stringify(raw)} names a directory` };
  return name;
}
