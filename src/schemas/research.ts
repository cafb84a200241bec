/**
 * Research requests (api-reference §13): `parameters` = `GenAIResearchParams {output_schema, query,
 * prompt_template}` (one of `query` or `prompt_template` is needed) and one input or a list of 1..50
 * inputs `{business_id | prospect_id, custom_fields?}`.
 */
import { z } from 'zod';
import { BusinessId, ProspectId } from './records.js';

export const ResearchParams = z
  .strictObject({
    output_schema: z.record(z.string(), z.unknown()),
    query: z.string().min(1).nullish(),
    prompt_template: z.string().min(1).nullish(),
  })
  .refine((p) => Boolean(p.query) || Boolean(p.prompt_template), {
    message: 'either query or prompt_template is required',
  });
export type ResearchParams = z.output<typeof ResearchParams>;

const CustomFields = z.record(z.string(), z.unknown()).nullish();
const BusinessInput = z.strictObject({ business_id: BusinessId, custom_fields: CustomFields });
const ProspectInput = z.strictObject({ prospect_id: ProspectId, custom_fields: CustomFields });
const oneOrMany = <T extends z.ZodType>(t: T) => z.union([t, z.array(t).min(1).max(50)]);

export const BusinessResearchBody = z.strictObject({
  request_context: z.record(z.string(), z.unknown()).nullish(),
  parameters: ResearchParams,
  businesses: oneOrMany(BusinessInput),
});
export const ProspectResearchBody = z.strictObject({
  request_context: z.record(z.string(), z.unknown()).nullish(),
  parameters: ResearchParams,
  prospects: oneOrMany(ProspectInput),
});
