/**
 * A research provider over an OpenAI-compatible chat-completions endpoint with structured output
 * (`response_format: json_schema`). Base URL, key and model come from the options or the environment
 * (`PROSPECTDB_RESEARCH_BASE_URL` / `OPENAI_BASE_URL`, `PROSPECTDB_RESEARCH_API_KEY` / `OPENAI_API_KEY`,
 * `PROSPECTDB_RESEARCH_MODEL` / `OPENAI_MODEL`). With `webSearch`, `web_search_options` is passed through
 * for endpoints that ground answers on the web; cited URLs come back as `sources`.
 */
import type { ResearchAnswer, ResearchProvider, ResearchTask } from './provider.js';

export interface ChatProviderOptions {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** Ask the endpoint for web grounding (`web_search_options`); off by default. */
  webSearch?: boolean | Record<string, unknown>;
  timeoutMs?: number;
  /** Injected fetch (tests); default the global one. */
  fetch?: typeof fetch;
}

const SYSTEM =
  'You are a B2B research assistant. Answer the task about the given entity using its record and custom fields' +
  ' (and web research when available). Reply with JSON that matches the response schema; use null for any value' +
  ' you cannot establish. Never invent contact data.';

interface ChatResponse {
  choices?: { message?: { content?: string | null; refusal?: string | null; annotations?: unknown[] } }[];
}

/**
 * Creates the chat-completions provider.
 * @example chatCompletionsProvider({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'k', model: 'small' })
 */
export function chatCompletionsProvider(options: ChatProviderOptions = {}): ResearchProvider {
  const env = process.env;
  const baseUrl = (
    options.baseUrl ??
    env.PROSPECTDB_RESEARCH_BASE_URL ??
    env.OPENAI_BASE_URL ??
    'https://api.openai.com/v1'
  ).replace(/\/+$/, '');
  const apiKey = options.apiKey ?? env.PROSPECTDB_RESEARCH_API_KEY ?? env.OPENAI_API_KEY;
  const model = options.model ?? env.PROSPECTDB_RESEARCH_MODEL ?? env.OPENAI_MODEL ?? 'gpt-4o-mini';
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;

  async function research(task: ResearchTask): Promise<ResearchAnswer> {
    const body: Record<string, unknown> = {
      model,
      messages: [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content:
            `Task: ${task.prompt}\n\n${task.entity_type} ${task.entity_id} record (JSON):\n${JSON.stringify(task.record)}` +
            `\n\nCustom fields (JSON):\n${JSON.stringify(task.custom_fields)}`,
        },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'research_result', schema: task.output_schema, strict: false },
      },
    };
    if (options.webSearch) body.web_search_options = options.webSearch === true ? {} : options.webSearch;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const res = await doFetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`chat-completions endpoint answered ${res.status}: ${text.slice(0, 300)}`);
    const message = (JSON.parse(text) as ChatResponse).choices?.[0]?.message;
    if (message?.refusal) throw new Error(`the model refused: ${message.refusal}`);
    if (typeof message?.content !== 'string')
      throw new Error('the chat-completions response has no message content');
    const sources = (message.annotations ?? [])
      .map((a) => (a as { url_citation?: { url?: unknown } }).url_citation?.url)
      .filter((u): u is string => typeof u === 'string');
    return {
      result: JSON.parse(message.content) as unknown,
      note: `Answered by ${model} through a chat-completions endpoint${options.webSearch ? ' with web search requested' : ''}.`,
      ...(sources.length ? { sources } : {}),
    };
  }

  return { name: 'chat_completions', research };
}
