/**
 * E-mail notices when a job succeeds or fails, sent through SMTP with nodemailer when the engine has an
 * SMTP server configured (`jobs.smtp`). Sent at most once per job (the job is marked first).
 */
import type { Context } from '../runtime/context.js';
import { jobStatusBody, type JobRow } from './state.js';
import type { JobNotifications } from '../schemas/jobs.js';
import type { SmtpOptions } from '../runtime/settings.js';

export type { SmtpOptions } from '../runtime/settings.js';

/** Whether a finished job asked for a notice on its outcome. */
export function wantsNotice(job: JobRow): boolean {
  if (!job.notifications) return false;
  const email = (JSON.parse(job.notifications) as NonNullable<JobNotifications>).email;
  if (!email?.enabled) return false;
  const outcome = job.status === 'succeeded' ? 'success' : 'failure';
  return (email.on ?? ['success', 'failure']).includes(outcome);
}

/** Sends the notice of one finished job. */
export async function sendJobNotice(engine: Context, smtp: SmtpOptions, job: JobRow): Promise<void> {
  const to = typeof smtp.to === 'function' ? smtp.to(job.account_id) : smtp.to;
  if (!to) return;
  // Loaded on the first notice: nodemailer costs ~0.1 s to import, and most engines never send mail.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure ?? false,
    auth: smtp.auth,
    tls: { rejectUnauthorized: false },
  });
  const status = jobStatusBody(engine, job);
  const outcome = job.status === 'succeeded' ? 'succeeded' : `ended: ${job.status}`;
  const lines = [
    `Job ${job.job_id} (${job.endpoint}) ${outcome}.`,
    `Rows processed: ${job.cursor} of ${job.row_count}; results with data: ${job.total_results}; credits: ${job.total_credits}.`,
  ];
  const results = status.results as { download_url: string; expires_at: string } | undefined;
  if (results) lines.push(`Results (CSV): ${results.download_url} (until ${results.expires_at}).`);
  if (job.error) lines.push(`Error: ${job.error}`);
  try {
    await transport.sendMail({
      from: smtp.from,
      to,
      subject: `[prospectdb] job ${job.job_id} ${job.status}`,
      text: lines.join('\n'),
      headers: { 'X-Job-Id': job.job_id, 'X-Job-Status': job.status },
    });
  } finally {
    transport.close();
  }
}
