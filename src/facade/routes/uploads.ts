/**
 * `POST /v2/async/entity-id-datasets/upload`: multipart form (`file`, `entity_type`, `name`,
 * `description`, all required) parsed with busboy; camelCase response without `response_context`.
 */
import type busboy from 'busboy';
import { createList, MAX_CSV_BYTES, MAX_LIST_DESCRIPTION, MAX_LIST_ROWS } from '../../jobs/index.js';
import { EngineError, type ValidationIssue } from '../../errors.js';
import type { Route } from '../types.js';

interface Form {
  fields: Record<string, string>;
  file: Buffer | null;
  truncated: boolean;
}

/** Parses a multipart body with busboy (imported on the first upload: no other request needs it). */
export async function parseMultipart(body: Buffer, contentType: string): Promise<Form> {
  const { default: parser } = await import('busboy');
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = parser({
        headers: { 'content-type': contentType },
        // Fields beyond the longest documented one are cut (then refused by `createList`), parts capped.
        limits: {
          files: 1,
          fileSize: MAX_CSV_BYTES,
          fields: 16,
          parts: 20,
          fieldSize: MAX_LIST_DESCRIPTION + 1,
        },
      });
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    const form: Form = { fields: {}, file: null, truncated: false };
    bb.on('field', (name, value) => {
      form.fields[name] = value;
    });
    bb.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => (form.truncated = true));
      stream.on('close', () => {
        if (name === 'file') form.file = Buffer.concat(chunks);
      });
    });
    bb.on('close', () => resolve(form));
    bb.on('error', (e) => reject(e instanceof Error ? e : new Error(String(e))));
    bb.end(body);
  });
}

const missing = (field: string): ValidationIssue => ({
  loc: ['body', field],
  msg: 'field required',
  type: 'value_error.missing',
});

export const routes: Route[] = [
  {
    method: 'POST',
    path: '/v2/async/entity-id-datasets/upload',
    consumes: 'multipart',
    async handler(ctx) {
      const contentType = ctx.headers['content-type'] ?? '';
      if (!ctx.rawBody || !/^multipart\/form-data/i.test(contentType)) {
        throw EngineError.validation([
          { loc: ['body'], msg: 'expected a multipart/form-data body', type: 'value_error.multipart' },
        ]);
      }
      let form: Form;
      try {
        form = await parseMultipart(ctx.rawBody, contentType);
      } catch (e) {
        throw EngineError.validation([
          {
            loc: ['body'],
            msg: `malformed multipart body: ${(e as Error).message}`,
            type: 'value_error.multipart',
          },
        ]);
      }
      const issues: ValidationIssue[] = [];
      if (!form.file) issues.push(missing('file'));
      for (const f of ['entity_type', 'name', 'description'])
        if (form.fields[f] === undefined) issues.push(missing(f));
      const entityType = form.fields.entity_type;
      if (entityType !== undefined && entityType !== 'business' && entityType !== 'prospect') {
        issues.push({
          loc: ['body', 'entity_type'],
          msg: "value is not a valid enumeration member; permitted: 'business', 'prospect'",
          type: 'type_error.enum',
          ctx: { enum_values: ['business', 'prospect'] },
        });
      }
      if (form.truncated) {
        issues.push({
          loc: ['body', 'file'],
          msg: `ensure the file has at most ${MAX_LIST_ROWS} rows`,
          type: 'value_error.list.max_items',
        });
      }
      if (issues.length > 0) throw EngineError.validation(issues);
      const list = await createList(ctx.engine, ctx.account!.account_id, {
        entity_type: entityType as 'business' | 'prospect',
        name: form.fields.name!,
        description: form.fields.description!,
        csv: form.file!.toString('utf8'),
      });
      return {
        responseContext: false,
        body: {
          list_id: list.list_id,
          name: list.name,
          description: list.description,
          rowCount: list.row_count,
          entityType: list.entity_type,
          tenantId: ctx.account!.partner_id,
          expiresAt: new Date(list.expires_at).toISOString(),
        },
      };
    },
  },
];
