// Public face of the engine facade.
export * from './types';
export * from './errors';
export * from './columns';
export * from './events';
export * from './simulation';
export type { EngineInfo, FromWorker, ToWorker } from './protocol';
export { EngineClient, type RunHandle, type RunResult, type RunChunk, type RunStart, type WorkerLike } from './client';
