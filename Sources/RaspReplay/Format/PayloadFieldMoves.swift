import RaspDomains
import RaspJSON

/// A map's `fields`: payload fields renamed, and numbers scaled, before a domain reads them —
/// `{"from": "latitudeE7", "to": "latitude", "scale": 1e-7}` for Google's location history,
/// whose coordinates are integers of ten-millionths of a degree.
///
/// The payload is written anew, once, with the keys renamed and the numbers scaled; its other
/// members are copied as they are. A scale that is a negative power of ten divides by the
/// power instead of multiplying, so that `525200080 × 1e-7` is `52.520008` exactly as written,
/// not `52.520008000000004`.
///
/// ```swift
/// let moves = PayloadFieldMoves([.init(from: "latitudeE7", to: "latitude", scale: 1e-7)])
/// try moves.rewrite(line, payloadAt: 40, named: "data", into: &bytes)
/// // {"latitude":52.520008,…}
/// ```
struct PayloadFieldMoves: Sendable {
  /// One field to rename or scale.
  struct Move: Sendable {
    /// The key in the log's payload.
    let from: String
    /// The key the domain reads; `from` when only scaled.
    let to: String
    /// What to multiply a number by; `nil` to leave the value as it is.
    let scale: Double?
  }

  let moves: [Move]

  init(_ moves: [Move]) {
    self.moves = moves
  }

  /// Writes the payload object at `range` of `event`, with the fields moved, to `output`.
  ///
  /// - Throws: ``RaspDomains/RaspEventError`` with an offset in `event`, for a field to scale
  ///   that is not a number, or a renamed field whose new name the payload has already.
  func rewrite(
    _ event: UnsafeBufferPointer<UInt8>, payloadAt start: Int, named payload: String,
    into output: inout [UInt8]
  ) throws(RaspEventError) {
    var scanner = JSONScanner(event, position: start)
    var writer = JSONWriter()
    writer.writeRaw("{")
    var first = true
    var written: Set<String> = []
    do {
      var progress = try scanner.beginObject()
      while let raw = try scanner.nextMember(&progress) {
        let key = scanner.string(raw)
        scanner.skipWhitespace()
        let valueStart = scanner.position
        try scanner.skipValue()
        let value = UnsafeBufferPointer(rebasing: event[valueStart..<scanner.position])
        let move = moves.first { $0.from == key }
        let name = move?.to ?? key
        guard written.insert(name).inserted else {
          throw RaspEventError(
            offset: raw.start - 1,
            reason: .invalidValue(
              field: RaspEventError.field("." + key, under: payload),
              reason: "the map's 'fields' gives the payload a second '\(name)'"))
        }
        if !first { writer.writeRaw(",") }
        first = false
        writer.writeString(name)
        writer.writeRaw(":")
        if let scale = move?.scale {
          guard let number = Self.number(value) else {
            throw RaspEventError.wrongType(
              field: RaspEventError.field("." + key, under: payload), expected: "a number to scale",
              at: valueStart,
              in: scanner)
          }
          let scaled = Self.scaled(number, by: scale)
          guard scaled.isFinite else {
            var factor = JSONWriter()
            factor.writeNumber(scale)
            throw RaspEventError(
              offset: valueStart,
              reason: .invalidValue(
                field: RaspEventError.field("." + key, under: payload),
                reason: "scaled by the map's "
                  + "\(String(decoding: factor.bytes, as: UTF8.self)), it is too large for a "
                  + "JSON number"))
          }
          writer.writeNumber(scaled)
        } else {
          writer.writeRaw(value)
        }
      }
    } catch let error as RaspEventError {
      throw error
    } catch let error as JSONError {
      throw RaspEventError(error)
    } catch {
      throw RaspEventError(offset: start, reason: .rejected("\(error)"))
    }
    writer.writeRaw("}")
    output.append(contentsOf: writer.bytes)
  }

  /// The number a value's text holds, or `nil` for another kind of value.
  private static func number(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    guard let first = text.first, first == UInt8(ascii: "-") || (first &- 48) < 10 else {
      return nil
    }
    return Double(String(decoding: text, as: UTF8.self))
  }

  /// `value × scale`, dividing by a power of ten for a scale that is its inverse.
  static func scaled(_ value: Double, by scale: Double) -> Double {
    var power = 1.0
    for _ in 0..<22 {
      power *= 10
      if scale == 1 / power { return value / power }
    }
    return value * scale
  }
}
