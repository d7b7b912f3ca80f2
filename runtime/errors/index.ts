export * from './registry.js';
export * from './wharf-error.js';
export * from './to-response.js';
export { installErrorHandling, sendErrorResponse, errorResponseFor } from './error-handler.js';
