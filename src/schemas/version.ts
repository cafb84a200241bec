/** The API version of a request: 1 for `/v1/...` (and the operational routes), 2 for `/v2/...`. */
export type ApiVersion = 1 | 2;
