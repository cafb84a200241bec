/**
 * A local server on 127.0.0.1 that speaks the chat-completions protocol: `POST /v1/chat/completions`
 * answers with the JSON the `answer` function returns for the request (as the message content), or with
 * an HTTP error when it returns `{ status, error }`.
 */
import { createServer, type IncomingMessage } from 'node:http';

export interface ChatRequest {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown> } };
    web_search_options?: unknown;
  };
}

export type ChatAnswer = unknown | { status: number; error: string };

export interface ChatServer {
  /** Base URL to give the provider (`http://127.0.0.1:<port>/v1`). */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

export async function startChatServer(answer: (req: ChatRequest) => ChatAnswer): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const request: ChatRequest = { headers: req.headers, body: JSON.parse(text) as ChatRequest['body'] };
      requests.push(request);
      const out = answer(request) as { status?: number; error?: string };
      if (out && typeof out === 'object' && typeof out.status === 'number') {
        res
          .writeHead(out.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: out.error } }));
        return;
      }
      const annotations = request.body.web_search_options
        ? [{ type: 'url_citation', url_citation: { url: 'https://news.example/article', title: 'Article' } }]
        : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          model: request.body.model,
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: JSON.stringify(out), annotations },
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
