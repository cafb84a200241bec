import { describe, expect, it } from 'vitest';
import { technographics } from '../src/core/enrich/payloads.js';
import type { BusinessRecord } from '../src/schemas/records.js';

/** Only the fields technographics reads. */
const business = (
  tech: string[],
  categories: string[],
  enrichments: Record<string, unknown> = {},
): BusinessRecord =>
  ({
    company_tech_stack_tech: tech,
    company_tech_stack_categories: categories,
    enrichments,
  }) as unknown as BusinessRecord;

describe('technographics', () => {
  it('sorts the technologies of full_tech_stack into their categories when no payload is stored', () => {
    const out = technographics(
      business(['Salesforce', 'AWS', 'Google Cloud'], ['Sales', 'Platform And Storage']),
    );
    expect(out.full_tech_stack).toEqual(['Salesforce', 'AWS', 'Google Cloud']);
    expect(out.sales).toEqual(['Salesforce']);
    expect(out.platform_and_storage).toEqual(['AWS', 'Google Cloud']);
    expect(out.marketing).toEqual([]);
    expect(out.full_nested_tech_stack).toEqual([
      { category: 'Sales', technologies: ['Salesforce'] },
      { category: 'Platform And Storage', technologies: ['AWS', 'Google Cloud'] },
    ]);
  });

  it('puts a technology the catalogue does not know in the record’s only category, else nowhere but the flat list', () => {
    expect(technographics(business(['Acme CRM'], ['Sales'])).sales).toEqual(['Acme CRM']);
    const two = technographics(business(['Acme CRM', 'Slack'], ['Sales', 'Collaboration']));
    expect(two.sales).toEqual([]);
    expect(two.collaboration).toEqual(['Slack']);
    expect(two.full_tech_stack).toEqual(['Acme CRM', 'Slack']);
  });

  it('adds catalogue categories the record does not list to the nested stack', () => {
    const out = technographics(business(['Slack', 'GitHub'], ['Collaboration']));
    expect(out.full_nested_tech_stack).toEqual([
      { category: 'Collaboration', technologies: ['Slack'] },
      { category: 'Devops And Development', technologies: ['GitHub'] },
    ]);
  });

  it('answers a stored payload as stored', () => {
    const stored = {
      full_tech_stack: ['Figma'],
      full_nested_tech_stack: [{ category: 'Product And Design', technologies: ['Figma'] }],
      product_and_design: ['Figma'],
    };
    const out = technographics(business(['Figma'], ['Product And Design'], { technographics: stored }));
    expect(out.product_and_design).toEqual(['Figma']);
    expect(out.sales).toEqual([]);
    expect(out.full_nested_tech_stack).toEqual(stored.full_nested_tech_stack);
  });
});
