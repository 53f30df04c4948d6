import { workflow } from '@skein/core';
import { one, two, three } from './steps.js';

export default workflow({ name: 'three', fn: async (n) => three(await two(await one(n))) });
