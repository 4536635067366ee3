// The renderer is the media area's own (internal/renderer.ts); the process's shutdown ends it through here.
export { stopPhotoRenderer } from "./internal/renderer";
