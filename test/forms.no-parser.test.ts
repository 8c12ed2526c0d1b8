import { pipeline, route } from "../src/index";
import { multipartBody, multipartType } from "./fixtures/forms-body";

/*
 * Without the optional peer multipasta, reading a multipart body is a 500 (the app's setup, not the
 * client's request) whose error says what to install; urlencoded forms still read.
 */

jest.mock("multipasta", () => {
  throw Object.assign(new Error("Cannot find module 'multipasta'"), { code: "MODULE_NOT_FOUND" });
});

test("a multipart body: a 500, and onError is told to npm install multipasta; urlencoded still reads", async () => {
  const errors: unknown[] = [];
  const handle = pipeline(
    route("POST /", async (req) => [...(await req.form()).fields]),
    { onError: (error) => void errors.push(error) },
  );
  const reply = await handle({
    method: "POST",
    url: "/",
    headers: { "content-type": multipartType() },
    body: multipartBody([{ field: "a", value: "1" }]),
  });
  expect(reply!.status).toBe(500);
  expect((errors[0] as Error).message).toBe(
    "reading a multipart/form-data body needs the optional peer dependency multipasta: npm install multipasta",
  );
  expect(((errors[0] as Error).cause as Error).message).toMatch(/Cannot find module/);
  const urlencoded = await handle({
    method: "POST",
    url: "/",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "a=1",
  });
  expect(urlencoded!.body).toBe(JSON.stringify([["a", "1"]]));
});
