// The codecs' answer shape is core's (the dialect layer consumes it); named here for the codecs.
export type { Inbound } from "../index.js";
