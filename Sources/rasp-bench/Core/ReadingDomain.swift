import RaspDomains
import RaspJSON

/// The core benchmark's state as a recordable domain, so that the benchmark can time an
/// aggregator with a recorder attached: `bench.reading` events, `{"time":…,"value":…}`.
struct ReadingDomain: RaspRecordableDomain {
  var name: String { "bench" }
  var summary: String { "The core benchmark's readings." }
  var events: [RaspEventSchema] {
    [RaspEventSchema(name: "reading", summary: "A reading.", fields: [])]
  }
  var initialState: CoreBenchmark.Summary { CoreBenchmark.Summary() }

  func decodeEvent(
    _ name: RaspEventName, payload: inout RaspPayload, context: RaspEventContext
  ) throws(RaspEventError) -> CoreBenchmark.Reading {
    var reading = CoreBenchmark.Reading(time: 0, value: 0)
    while let field = try payload.nextField() {
      switch field {
      case "time": reading.time = Int(try payload.integer())
      case "value": reading.value = Int(try payload.integer())
      default: try payload.skip()
      }
    }
    return reading
  }

  func encode(_ state: CoreBenchmark.Summary, into writer: inout JSONWriter) {
    writer.writeRaw(#"{"count":"#)
    writer.writeInteger(Int64(state.count))
    writer.writeRaw(#","highest":"#)
    writer.writeInteger(Int64(state.highest))
    writer.writeRaw(#","total":"#)
    writer.writeInteger(Int64(state.total))
    writer.writeRaw("}")
  }

  func encodeEvent(_ event: CoreBenchmark.Reading, into record: inout RaspEventRecord) {
    record.name = "reading"
    record.payload.writeRaw(#"{"time":"#)
    record.payload.writeInteger(Int64(event.time))
    record.payload.writeRaw(#","value":"#)
    record.payload.writeInteger(Int64(event.value))
    record.payload.writeRaw("}")
  }
}
