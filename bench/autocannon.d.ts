/** The part of autocannon's API the serve bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    /** Milliseconds. */
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
