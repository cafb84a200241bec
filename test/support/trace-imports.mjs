// `node --import ./test/support/trace-imports.mjs …`: prints every module URL the process resolves to
// stderr as `resolved <url>`, so a test can see what importing an entry really loads.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { writeSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context);
        writeSync(2, 'resolved ' + result.url + '\\n');
        return result;
      }`),
);
