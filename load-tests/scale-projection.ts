/**
 * `npm run bench:scale [-- --scenario=100k-500]`: the scale-out projection of docs/scale-out.md. Nothing is started or
 * measured: the inputs (scale/inputs.ts, measured figures with their records and marked assumptions) give, in closed
 * form, what 100k and 1M concurrent users in rooms of 10, 500 and 10,000 need per process kind; a seeded simulation of
 * rooms on partitions and users on gateway replicas checks the totals and shows the skew. Prints markdown; exits 1
 * when a simulated total strays more than 1 % from the closed form.
 */
import { disagreements, runScenario, TOLERANCE } from './scale/check.ts';
import { inputValues } from './scale/inputs.ts';
import { SCENARIOS } from './scale/model.ts';
import { inputsTable, scenarioTables, summaryTable } from './scale/tables.ts';

const flag = process.argv.find((a) => a.startsWith('--scenario='))?.slice('--scenario='.length);
const chosen = flag ? SCENARIOS.filter((s) => s.name === flag) : SCENARIOS;
if (chosen.length === 0) {
  console.error(`unknown scenario ${flag}; one of: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

const inputs = inputValues();
const started = performance.now();
const results = chosen.map((s) => runScenario(s, inputs));

console.log('## Inputs\n');
console.log(inputsTable(inputs));
console.log('\n## Summary\n');
console.log(summaryTable(results));
for (const r of results) console.log(`\n${scenarioTables(r, inputs)}`);

const off = results.flatMap((r) => disagreements(r).map((a) => `${r.projection.scenario.name}: ${a.figure}`));
console.log(
  `\n${off.length === 0 ? 'Every simulated total within' : 'OFF by more than'} ${TOLERANCE * 100} % of the closed form` +
    `${off.length ? `: ${off.join(', ')}` : ''}; ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
if (off.length) process.exitCode = 1;
