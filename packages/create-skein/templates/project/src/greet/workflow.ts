import { workflow, z } from '@skein/core';
import { composeGreeting } from './steps.js';
import { judgeTone } from './evaluators.js';
import { shout } from '../shared/steps/shout.js';

/** Greets someone: composes a greeting (a step), judges its tone (an evaluator), and shouts it when asked. */
export default workflow({
  name: 'greet',
  description: 'Composes a greeting and judges its tone.',
  // Every field has a default, so `skein workflow run greet --input '{}'` runs it (an input is an object, even empty).
  inputSchema: z.object({
    name: z.string().min(1).default('world'),
    excited: z.boolean().default(false),
  }),
  outputSchema: z.object({
    message: z.string(),
    tone: z.object({ value: z.string(), confidence: z.number().optional(), reasoning: z.string().optional() }),
  }),
  options: { activityOptions: { startToCloseTimeout: '30s' } },
  fn: async ({ name, excited }) => {
    const greeting = await composeGreeting({ name });
    const message = excited ? await shout(greeting) : greeting;
    const tone = await judgeTone({ message });
    return { message, tone };
  },
});
