/** Release of the v1 contract, reported by the OpenAPI document, `GET /schema` and `GET /ping`. */
export const apiRelease = "1.0.0";
