/**
 * `unirank/node`: what needs a server runtime (Node or Bun): files as import sources, the DNS-checked address
 * guard for webhook receivers, and the worker that sends webhook deliveries over the network.
 */
export {
  type GuardOptions,
  isPrivateAddress,
  type Resolver,
  refuseReceiverUrl,
  systemResolver,
} from "./address-guard.ts";
export {
  type DeliveryLog,
  type DeliveryOptions,
  type DeliveryWorker,
  type PassSummary,
  runDeliveryPass,
  startDeliveryWorker,
} from "./dispatcher.ts";
export { fileSource, sourceLabel } from "./file-source.ts";
export { importFiles } from "./import-files.ts";
export { DEFAULT_TIMEOUT_MS, type FetchLike, type SendOptions, sendDelivery } from "./send.ts";
