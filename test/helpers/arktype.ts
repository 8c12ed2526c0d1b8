import { transformSync } from "@swc/core";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { ROOT } from "./typecheck";

/*
 * arktype (and @ark/schema, @ark/util, arkregex: its dependencies) ships ES modules only, which jest's CommonJS module system
 * cannot load, and jest.config.js transforms only inversify's. This helper makes a CommonJS copy of
 * these packages once (swc, as jest.config.js does for inversify) under node_modules/.cache, and loads
 * arktype from there: the real library, its code unchanged but for the module format.
 */

interface Manifest {
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

function manifest(name: string): Manifest {
  return JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as Manifest;
}

/** arktype and every package it depends on, through their dependencies. */
function packages(): string[] {
  const found = new Set<string>();
  const visit = (name: string): void => {
    if (found.has(name)) return;
    found.add(name);
    for (const dependency of Object.keys(manifest(name).dependencies ?? {})) visit(dependency);
  };
  visit("arktype");
  return [...found].sort();
}

/** The folder holding the CommonJS copies (a `node_modules` of its own); made on first use. */
function cjsCopy(): string {
  const names = packages();
  const key = names.map((name) => `${name.replace("/", "+")}@${manifest(name).version}`).join("_");
  const target = path.join(ROOT, "node_modules/.cache/switchyard-arktype-cjs", key);
  if (existsSync(target)) return target;
  mkdirSync(path.dirname(target), { recursive: true });
  const building = mkdtempSync(`${target}.building-`);
  for (const name of names) {
    const to = path.join(building, "node_modules", name);
    cpSync(path.join(ROOT, "node_modules", name), to, { recursive: true, dereference: true });
    const manifest = path.join(to, "package.json");
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, unknown>;
    writeFileSync(manifest, JSON.stringify({ ...pkg, type: "commonjs" }));
    transformTree(to);
  }
  try {
    renameSync(building, target);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another worker made it first
  }
  return target;
}

function transformTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") transformTree(file);
    } else if (entry.name.endsWith(".js")) {
      const { code } = transformSync(readFileSync(file, "utf8"), {
        filename: file,
        jsc: { parser: { syntax: "ecmascript" }, target: "es2022" },
        module: { type: "commonjs" },
      });
      writeFileSync(file, code);
    }
  }
}

/** arktype's module. */
export function loadArktype(): typeof import("arktype") {
  return require(path.join(cjsCopy(), "node_modules/arktype")) as typeof import("arktype");
}
