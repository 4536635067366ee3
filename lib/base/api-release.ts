/** Release of the v1 contract (spec: Versioning). */
export const apiRelease = "1.0.0";
