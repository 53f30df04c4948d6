/**
 * Engine call metrics: a gRPC client interceptor that times every WorkflowService call of the API's own
 * connection (from the call's start to its final status, retries included when placed before the retry
 * interceptor) and counts the calls that did not end `OK`.
 */
import { InterceptingCall, status as GrpcStatus, type Interceptor } from '@grpc/grpc-js';
import type { ApiMetrics } from './registry.js';

/**
 * The interceptor; pass it first in `ConnectionOptions.interceptors` so that it sees each call once, however
 * many attempts the retry interceptor after it makes. Labels: the method name (`StartWorkflowExecution`) and the
 * gRPC status name (`OK`, `NOT_FOUND`, ...).
 */
export function engineCallMetrics(metrics: ApiMetrics): Interceptor {
  return (options, nextCall) => {
    const path = options.method_definition.path;
    const rpc = path.slice(path.lastIndexOf('/') + 1);
    const started = performance.now();
    return new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            metrics.engineCall(rpc, GrpcStatus[status.code] ?? String(status.code), (performance.now() - started) / 1000);
            nextStatus(status);
          },
        });
      },
    });
  };
}
