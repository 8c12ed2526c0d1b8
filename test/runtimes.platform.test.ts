import { runtimePackage } from "./shared/runtimes";

/*
 * The runtime binaries are optional packages (test/runtimes/package.json), so a clone installs on any
 * OS; the runtime tests name the one package this machine needs, and fail when it is missing.
 */
describe("the runtime binary for a machine", () => {
  test.each([
    ["bun", "linux", "x64", "@oven/bun-linux-x64"],
    ["bun", "linux", "arm64", "@oven/bun-linux-aarch64"],
    ["bun", "darwin", "arm64", "@oven/bun-darwin-aarch64"],
    ["bun", "darwin", "x64", "@oven/bun-darwin-x64"],
    ["deno", "linux", "x64", "@deno/linux-x64-glibc"],
    ["deno", "linux", "arm64", "@deno/linux-arm64-glibc"],
    ["deno", "darwin", "arm64", "@deno/darwin-arm64"],
  ] as const)("%s on %s-%s is %s", (runtime, platform, arch, name) => {
    expect(runtimePackage(runtime, platform, arch)).toBe(name);
  });

  test("every package named is one test/runtimes/package.json lists", () => {
    const listed = Object.keys(require("./runtimes/package.json").optionalDependencies);
    for (const runtime of ["bun", "deno"] as const)
      for (const [platform, arch] of [
        ["linux", "x64"],
        ["linux", "arm64"],
        ["darwin", "arm64"],
        ["darwin", "x64"],
      ] as const)
        expect(listed).toContain(runtimePackage(runtime, platform, arch));
  });
});
