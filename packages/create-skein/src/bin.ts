#!/usr/bin/env node
import { Command } from 'commander';
import { configureInit } from './command.js';
import { skeinVersion } from './scaffold.js';

await configureInit(new Command('create-skein').version(skeinVersion())).parseAsync();
