/**
 * The Roomcraft client: `new RoomcraftClient({ baseUrl, apiKey })`, one method per processing operation, getJob,
 * waitForJob, listJobs, cancelJob, download and the lookups; RoomcraftError for every problem answer. Node's fetch
 * only, no dependency.
 */
export { RoomcraftClient, type OperationMethod } from './client.js';
export { DEFAULTS, type CallOptions, type ClientOptions, type ProcessingOptions } from './options.js';
export { RoomcraftError, type Problem } from './roomcraft-error.js';
export { OPERATIONS, OPERATION_NAMES, isOperationName, type FieldSpec, type FieldType, type OperationSpec } from './operations.js';
export { differencesFromOpenApi, requestFields, type DocumentField } from './openapi-check.js';
export { imageDataUrl, imageExtension, imageMediaType } from './data-url.js';
export type { WaitOptions } from './wait-for-job.js';
export type * from './requests.js';
export type * from './responses.js';
