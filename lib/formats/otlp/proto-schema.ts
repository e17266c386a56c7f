/**
 * The subset of opentelemetry-proto that an OTLP/HTTP trace receiver needs, as proto3 source parsed by protobufjs:
 * the trace export request and its response, the metrics and logs export responses (the receiver answers those
 * signals with an empty success), and google.rpc.Status (the body OTLP/HTTP gives a 4xx/5xx answer).
 * Field numbers and types are those of the upstream files, read from:
 *   open-telemetry/opentelemetry-proto  opentelemetry/proto/trace/v1/trace.proto
 *                                       opentelemetry/proto/common/v1/common.proto
 *                                       opentelemetry/proto/resource/v1/resource.proto
 *                                       opentelemetry/proto/collector/trace/v1/trace_service.proto
 *                                       opentelemetry/proto/collector/metrics/v1/metrics_service.proto
 *                                       opentelemetry/proto/collector/logs/v1/logs_service.proto
 *   googleapis/googleapis               google/rpc/status.proto (details = 3 is left out: we never send details)
 * Fields we do not read (schema_url, dropped_*_count, trace_state, links, entity_refs...) are kept where they are
 * cheap so the schema stays recognisably upstream's; a field left out is skipped by the decoder like any unknown one.
 * Not responsible for decoding or encoding anything itself (decode-protobuf.ts, response.ts).
 *
 * Field names stay protobufjs's default lowerCamelCase (not keepCase): that is exactly OTLP/JSON's key spelling, so
 * a decoded protobuf message, turned into a plain object, has the shape of an OTLP/JSON body and both wires share one
 * normalisation (normalize.ts).
 */
import protobuf from 'protobufjs';

const OTLP_TRACE_PROTO = `
syntax = "proto3";

package opentelemetry.proto.common.v1;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue {
  string key = 1;
  AnyValue value = 2;
}
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
`;

const OTLP_RESOURCE_PROTO = `
syntax = "proto3";

package opentelemetry.proto.resource.v1;

message Resource {
  repeated opentelemetry.proto.common.v1.KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}
`;

const OTLP_SPANS_PROTO = `
syntax = "proto3";

package opentelemetry.proto.trace.v1;

message ResourceSpans {
  opentelemetry.proto.resource.v1.Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  opentelemetry.proto.common.v1.InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  enum SpanKind {
    SPAN_KIND_UNSPECIFIED = 0;
    SPAN_KIND_INTERNAL = 1;
    SPAN_KIND_SERVER = 2;
    SPAN_KIND_CLIENT = 3;
    SPAN_KIND_PRODUCER = 4;
    SPAN_KIND_CONSUMER = 5;
  }
  SpanKind kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated opentelemetry.proto.common.v1.KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated opentelemetry.proto.common.v1.KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated opentelemetry.proto.common.v1.KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
}
message Status {
  reserved 1;
  string message = 2;
  enum StatusCode {
    STATUS_CODE_UNSET = 0;
    STATUS_CODE_OK = 1;
    STATUS_CODE_ERROR = 2;
  }
  StatusCode code = 3;
}
`;

const OTLP_COLLECTOR_PROTO = `
syntax = "proto3";

package opentelemetry.proto.collector.trace.v1;

message ExportTraceServiceRequest {
  repeated opentelemetry.proto.trace.v1.ResourceSpans resource_spans = 1;
}
message ExportTraceServiceResponse {
  ExportTracePartialSuccess partial_success = 1;
}
message ExportTracePartialSuccess {
  int64 rejected_spans = 1;
  string error_message = 2;
}
`;

// Metrics and logs: only the responses, since this receiver never reads those signals, it answers them with an
// empty success.
const OTLP_METRICS_PROTO = `
syntax = "proto3";

package opentelemetry.proto.collector.metrics.v1;

message ExportMetricsServiceResponse {
  ExportMetricsPartialSuccess partial_success = 1;
}
message ExportMetricsPartialSuccess {
  int64 rejected_data_points = 1;
  string error_message = 2;
}
`;

const OTLP_LOGS_PROTO = `
syntax = "proto3";

package opentelemetry.proto.collector.logs.v1;

message ExportLogsServiceResponse {
  ExportLogsPartialSuccess partial_success = 1;
}
message ExportLogsPartialSuccess {
  int64 rejected_log_records = 1;
  string error_message = 2;
}
`;

const GOOGLE_RPC_STATUS_PROTO = `
syntax = "proto3";

package google.rpc;

message Status {
  int32 code = 1;
  string message = 2;
}
`;

function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  for (const source of [
    OTLP_TRACE_PROTO,
    OTLP_RESOURCE_PROTO,
    OTLP_SPANS_PROTO,
    OTLP_COLLECTOR_PROTO,
    OTLP_METRICS_PROTO,
    OTLP_LOGS_PROTO,
    GOOGLE_RPC_STATUS_PROTO,
  ]) {
    protobuf.parse(source, root);
  }
  // resolve every reference now, so a typo in the schema fails at import rather than on the first request
  root.resolveAll();
  return root;
}

/** The parsed schema; every message below is looked up in it. */
export const otlpRoot: protobuf.Root = buildRoot();

const lookup = (name: string) => otlpRoot.lookupType(name);

export const ExportTraceServiceRequest = lookup('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
export const ExportTraceServiceResponse = lookup('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
export const ExportMetricsServiceResponse = lookup(
  'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse',
);
export const ExportLogsServiceResponse = lookup('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse');
export const RpcStatus = lookup('google.rpc.Status');
