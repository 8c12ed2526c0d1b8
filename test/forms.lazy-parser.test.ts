import { alt, pipeline, route } from "../src/index";
import { multipartBody, multipartType } from "./fixtures/forms-body";

/*
 * The multipart parser (multipasta, an optional peer) is loaded the first time a multipart body is
 * read, once: an app that reads JSON or urlencoded forms never loads it. (Jest turns the reader's
 * import() into a require, which this mock counts.)
 */

let loads = 0;
jest.mock("multipasta", () => {
  loads++;
  return jest.requireActual("multipasta");
});

const app = alt(
  route("POST /json", async (req) => req.json()),
  route("POST /form", async (req) => [...(await req.form()).fields]),
);
const handle = pipeline(app);

test("JSON and urlencoded bodies do not load it; the first multipart body does, once", async () => {
  await handle({ method: "POST", url: "/json", headers: { "content-type": "application/json" }, body: "[1]" });
  await handle({
    method: "POST",
    url: "/form",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "a=1",
  });
  expect(loads).toBe(0);
  for (let i = 0; i < 3; i++) {
    const reply = await handle({
      method: "POST",
      url: "/form",
      headers: { "content-type": multipartType() },
      body: multipartBody([{ field: "a", value: String(i) }]),
    });
    expect(reply!.body).toBe(JSON.stringify([["a", String(i)]]));
  }
  expect(loads).toBe(1);
});
