/** The perturbations live in `src/bench/perturb.ts` (the `prospectdb bench` command uses them too). */
export * from '../../src/bench/perturb.js';
