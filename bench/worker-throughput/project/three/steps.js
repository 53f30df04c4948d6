import { step } from '@skein/core';

export const one = step({ name: 'one', fn: async (n) => n + 1 });
export const two = step({ name: 'two', fn: async (n) => n * 2 });
export const three = step({ name: 'three', fn: async (n) => n - 3 });
