/**
 * Files endpoints (`/api/{env}/files/...`): GET lists, POST uploads (multipart, part `file`),
 * GET `/{fileId}` downloads (byte ranges: 206/416), DELETE `/{fileId}` removes. Each operation
 * lists the error statuses of the spec's Files row that can occur for it.
 */
import type { OperationObject, ParameterObject } from 'openapi3-ts/oas32';
import type { FilesEndpoint, HttpMethod } from '../../../runtime/contract/index.js';
import { errorResponses } from './components.js';
import type { ErrorStatus } from './components.js';
import { mediaTypesOf, OCTET_STREAM } from './media-types.js';
import { basePath, jsonResponse, pathParameter } from './operation-spec.js';
import type { KindOperations, OperationSpec } from './operation-spec.js';

const BASE_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 500, 503];
const UPLOAD_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 409, 413, 415, 500, 503];
const DOWNLOAD_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 416, 500, 503];

export function filesOperations(model: FilesEndpoint): KindOperations {
  const has = (m: HttpMethod): boolean => model.methods.includes(m);
  const fileId = pathParameter('fileId', 'Id of the file, as returned by the upload and the listing.');
  const ops: OperationSpec[] = [];
  const add = (method: HttpMethod, byId: boolean, label: string, operation: OperationObject, notes: string[] = []): void => {
    ops.push({
      path: byId ? `${basePath(model)}/{fileId}` : basePath(model),
      pathParameters: byId ? [fileId] : [],
      method,
      // The download is the only second operation of a method: it alone needs an id suffix.
      variant: { id: label === 'download' ? 'download' : byId ? 'byId' : null, label },
      notes,
      operation,
    });
  };
  if (has('GET')) {
    add('GET', false, 'list', { responses: { 200: jsonResponse('The files of this endpoint.', {}), ...errorResponses(BASE_ERRORS) } });
    add('GET', true, 'download', {
      parameters: [rangeHeader()],
      responses: {
        200: { description: 'The file.', headers: { 'Accept-Ranges': textHeader('`bytes`') }, content: { [OCTET_STREAM]: {} } },
        206: { description: 'The requested byte range.', headers: { 'Content-Range': textHeader('Range served, e.g. `bytes 0-99/1234`.') }, content: { [OCTET_STREAM]: {} } },
        ...errorResponses(DOWNLOAD_ERRORS),
      },
    });
  }
  if (has('POST')) {
    const types = mediaTypesOf(model.allowedExtensions);
    add('POST', false, 'upload', {
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: OCTET_STREAM } } },
            encoding: { file: { contentType: types.length > 0 ? types.join(', ') : OCTET_STREAM } },
          },
        },
      },
      responses: { 201: jsonResponse('File stored.', { type: 'object' }), ...errorResponses(UPLOAD_ERRORS) },
    }, uploadNotes(model));
  }
  if (has('DELETE')) {
    add('DELETE', true, 'delete', { responses: { 200: jsonResponse('File removed.', { type: 'object' }), ...errorResponses(BASE_ERRORS) } });
  }
  return { operations: ops, schemas: {} };
}

function uploadNotes(model: FilesEndpoint): string[] {
  const notes: string[] = [];
  if (model.allowedExtensions.length > 0) notes.push(`Allowed extensions: ${model.allowedExtensions.map((e) => `\`${e}\``).join(', ')}.`);
  if (model.maxFileSizeBytes !== null) notes.push(`Largest accepted file: ${model.maxFileSizeBytes} bytes.`);
  return notes;
}

function rangeHeader(): ParameterObject {
  return { name: 'Range', in: 'header', required: false, description: 'One byte range, e.g. `bytes=0-99`.', schema: { type: 'string' } };
}

function textHeader(description: string): { description: string; schema: { type: 'string' } } {
  return { description, schema: { type: 'string' } };
}
