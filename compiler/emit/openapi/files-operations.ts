/**
 * Files endpoints (`/api/{env}/files/...`): GET lists, POST uploads (multipart, part `file`),
 * GET `/{fileId}` downloads (byte ranges: 206/416), DELETE `/{fileId}` removes. Each operation
 * lists the error statuses of the spec's Files row that can occur for it.
 */
import type { OperationObject, ParameterObject, SchemaObject } from 'openapi3-ts/oas32';
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
    add('GET', false, 'list', {
      parameters: listParameters(),
      responses: {
        200: {
          ...jsonResponse('The files of this endpoint, sorted by name, in the paging envelope.', LIST_SCHEMA),
          headers: { 'X-Total-Count': textHeader('Number of files matching `prefix`.') },
        },
        ...errorResponses(BASE_ERRORS),
      },
    }, ['The same listing answers at `…/list`.']);
    add('GET', true, 'download', {
      parameters: [rangeHeader()],
      responses: {
        200: { description: 'The file.', headers: DOWNLOAD_HEADERS, content: { [OCTET_STREAM]: {} } },
        206: { description: 'The requested byte range.', headers: { 'Content-Range': textHeader('Range served, e.g. `bytes 0-99/1234`.') }, content: { [OCTET_STREAM]: {} } },
        304: { description: 'Not modified: `If-None-Match` names the current ETag.' },
        ...errorResponses(DOWNLOAD_ERRORS),
      },
    });
  }
  if (has('POST')) {
    const types = mediaTypesOf(model.allowedExtensions);
    add('POST', false, 'upload', {
      parameters: [overwriteParameter()],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: OCTET_STREAM } } },
            encoding: { file: { contentType: types.length > 0 ? types.join(', ') : OCTET_STREAM } },
          },
        },
      },
      responses: {
        201: { ...jsonResponse('File stored.', UPLOADED_SCHEMA), headers: { Location: textHeader('URL of the stored file.') } },
        ...errorResponses(UPLOAD_ERRORS),
      },
    }, uploadNotes(model));
  }
  if (has('DELETE')) {
    add('DELETE', true, 'delete', { responses: { 200: jsonResponse('File removed.', DELETED_SCHEMA), ...errorResponses(BASE_ERRORS) } });
  }
  return { operations: ops, schemas: {} };
}

const STRING = { type: 'string' } as const;
const INTEGER = { type: 'integer' } as const;

const UPLOADED_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['success', 'fileId', 'filename', 'contentType', 'size', 'url'],
  properties: { success: { type: 'boolean' }, fileId: STRING, filename: STRING, contentType: STRING, size: INTEGER, url: STRING },
};

const LIST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['success', 'count', 'value', 'nextLink'],
  properties: {
    success: { type: 'boolean' },
    count: INTEGER,
    value: {
      type: 'array',
      items: {
        type: 'object',
        required: ['fileId', 'fileName', 'contentType', 'size', 'lastModified', 'url'],
        properties: { fileId: STRING, fileName: STRING, contentType: STRING, size: INTEGER, lastModified: { type: 'string', format: 'date-time' }, url: STRING },
      },
    },
    nextLink: { type: ['string', 'null'] },
  },
};

const DELETED_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['success', 'message', 'result'],
  properties: { success: { type: 'boolean' }, message: STRING, result: { type: 'null' } },
};

const DOWNLOAD_HEADERS = {
  'Accept-Ranges': textHeader('`bytes`'),
  'Content-Disposition': textHeader('`attachment` with the file name (RFC 6266).'),
  ETag: textHeader('Validator of this version of the file.'),
  'Last-Modified': textHeader('When the file was stored.'),
};

function listParameters(): ParameterObject[] {
  return [
    { name: 'prefix', in: 'query', required: false, description: 'Only files whose name starts with this text.', schema: STRING },
    { name: '$top', in: 'query', required: false, description: 'Page size, at most 1000 (default 100).', schema: { type: 'integer', minimum: 0, maximum: 1000 } },
    { name: '$skip', in: 'query', required: false, description: 'Files to skip.', schema: { type: 'integer', minimum: 0 } },
  ];
}

function overwriteParameter(): ParameterObject {
  return { name: 'overwrite', in: 'query', required: false, description: 'Replace a file of the same name (default false: 409).', schema: { type: 'boolean' } };
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
