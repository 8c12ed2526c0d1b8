/** The one UTF-8 encoder every module shares (a `TextEncoder` holds no state). */
export const utf8Encoder = new TextEncoder();
