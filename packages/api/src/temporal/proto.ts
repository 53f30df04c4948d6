import protoModule from '@temporalio/proto';

/** Temporal's generated protobuf namespace (`@temporalio/proto` is CommonJS, so it is read off the default export). */
export const temporal = protoModule.temporal;
export type { temporal as TemporalTypes } from '@temporalio/proto';
