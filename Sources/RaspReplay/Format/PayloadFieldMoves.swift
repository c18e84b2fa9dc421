import RaspDomains
import RaspJSON

/// A map's `fields`: payload fields renamed, and numbers scaled, before a domain reads them —
/// `{"from": "latitudeE7", "to": "latitude", "scale": 1e-7}` for Google's location history,
/// whose coordinates are integers of ten-millionths of a degree — and the fields without
/// which the event is not emitted: `{"from": "track", "to": "heading", "absentIs": "skip"}`
/// for a gpsd report that has no course, `"skipIf": -1` for OwnTracks' `cog` that has none.
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
    /// Whether the event is not emitted when the payload lacks the field, or has it `null`.
    var skipsWhenAbsent = false
    /// A value of the field for which the event is not emitted, compared by meaning (`-1`
    /// is `-1.0`).
    var skipValue: JSONValue?
  }

  /// Where a member of the payload is in the payload written and in the event read, so that
  /// an error found in what was written names the place, and the field, the log wrote.
  struct Placed {
    /// Where the member's key starts in the payload written, from its `{`.
    var writtenKey: Int
    /// Where its value starts and ends there.
    var writtenValue: Range<Int>
    /// Where its key's opening quote and its value start in the event read.
    var key: Int
    var value: Int
    /// Whether the value was scaled, so that no byte of it stands for a byte of the log's.
    var isScaled: Bool
  }

  let moves: [Move]
  /// Whether a field decides that the event is not emitted (`absentIs`, `skipIf`).
  let skips: Bool

  init(_ moves: [Move]) {
    self.moves = moves
    skips = moves.contains { $0.skipsWhenAbsent || $0.skipValue != nil }
  }

  /// The move of the log's field `field` (`cog`) to the one a domain reads, if any.
  func move(from field: String) -> Move? {
    moves.first { $0.from == field }
  }

  /// The move to the field a domain reads, `heading`, from the log's, if any.
  func move(to field: String) -> Move? {
    moves.first { $0.to == field && $0.from != field }
  }

  /// Writes the payload object at `range` of `event`, with the fields moved, to `output`.
  ///
  /// - Returns: `false`, with nothing written, when a field says that the event is not
  ///   emitted (`absentIs`, `skipIf`).
  /// - Throws: ``RaspDomains/RaspEventError`` with an offset in `event`, for a field to scale
  ///   that is not a number, or a renamed field whose new name the payload has already.
  @discardableResult
  func rewrite(
    _ event: UnsafeBufferPointer<UInt8>, payloadAt start: Int, named payload: String,
    into output: inout [UInt8]
  ) throws(RaspEventError) -> Bool {
    var places: [Placed] = []
    return try write(
      event, payloadAt: start, named: payload, into: &output, places: &places,
      recordsPlaces: false)
  }

  /// Where each member of the payload at `start` of `event` is in the payload written from it
  /// and in the event; empty when the payload is not an object that can be written.
  func places(in event: UnsafeBufferPointer<UInt8>, payloadAt start: Int) -> [Placed] {
    var places: [Placed] = []
    var output: [UInt8] = []
    let written = try? write(
      event, payloadAt: start, named: "payload", into: &output, places: &places,
      recordsPlaces: true)
    return written == true ? places : []
  }

  /// Whether the event is emitted when its payload is absent: not when a field must be there.
  var emitsWithoutPayload: Bool { !moves.contains { $0.skipsWhenAbsent } }

  private func write(
    _ event: UnsafeBufferPointer<UInt8>, payloadAt start: Int, named payload: String,
    into output: inout [UInt8], places: inout [Placed], recordsPlaces: Bool
  ) throws(RaspEventError) -> Bool {
    var scanner = JSONScanner(event, position: start)
    var writer = JSONWriter()
    writer.writeRaw("{")
    var first = true
    var written: Set<String> = []
    // The fields that must be there, found: one bit a move, for the first 64.
    var present: UInt64 = 0
    do {
      var progress = try scanner.beginObject()
      while let raw = try scanner.nextMember(&progress) {
        let key = scanner.string(raw)
        scanner.skipWhitespace()
        let valueStart = scanner.position
        try scanner.skipValue()
        let value = UnsafeBufferPointer(rebasing: event[valueStart..<scanner.position])
        let index = moves.firstIndex { $0.from == key }
        let move = index.map { moves[$0] }
        if skips, let index, let move {
          let isNull = value.first == UInt8(ascii: "n")
          if move.skipsWhenAbsent, !isNull, index < 64 { present |= 1 << UInt64(index) }
          if let skipValue = move.skipValue,
            let read = try? JSONParser.parse(value), read == skipValue
          {
            return false
          }
        }
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
        let writtenKey = writer.bytes.count
        writer.writeString(name)
        writer.writeRaw(":")
        let writtenValue = writer.bytes.count
        defer {
          if recordsPlaces {
            places.append(
              Placed(
                writtenKey: writtenKey, writtenValue: writtenValue..<writer.bytes.count,
                key: raw.start - 1, value: valueStart, isScaled: move?.scale != nil))
          }
        }
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
    if skips {
      for (index, move) in moves.enumerated().prefix(64)
      where move.skipsWhenAbsent && present & (1 << UInt64(index)) == 0 {
        return false
      }
    }
    writer.writeRaw("}")
    output.append(contentsOf: writer.bytes)
    return true
  }

  /// An error found in a payload written with these moves, as the log wrote it: the field
  /// a domain reads (`heading`) named as the line names it (`cog`), and the place in the
  /// written payload mapped to the same place in the line's — the value's own byte, or its
  /// first for a number scaled.
  ///
  /// ```swift
  /// moves.naming(error, payload: ".", at: origin.movedPayload, in: line)
  /// // (field 'cog' must be a number, found a string, 21)
  /// ```
  ///
  /// - Parameters:
  ///   - error: The error, its offset in the event as written, its fields named under the
  ///     payload's path (`data.heading`, or `heading` for the payload `.`).
  ///   - payload: The payload's path, as the format names it.
  ///   - place: Where the payload starts in the event and in the line
  ///     (``EventOrigin/movedPayload``), if known.
  ///   - line: The line.
  /// - Returns: The error renamed, and its offset in the line when it is inside the payload.
  func naming(
    _ error: RaspEventError, payload: String, at place: (written: Int, line: Int)?,
    in line: UnsafeBufferPointer<UInt8>
  ) -> (error: RaspEventError, lineOffset: Int?) {
    let prefix = payload == "." ? "" : payload + "."
    let renamed = error.renamingFields { field in
      guard field.hasPrefix(prefix) else { return field }
      let rest = field.dropFirst(prefix.count)
      for move in moves where move.from != move.to && rest.hasPrefix(move.to) {
        let after = rest.dropFirst(move.to.count)
        guard after.isEmpty || after.first == "." || after.first == "[" else { continue }
        return prefix + move.from + after
      }
      return field
    }
    guard let place, let offset = error.offset, offset >= place.written else {
      return (renamed, nil)
    }
    let relative = offset - place.written
    for placed in places(in: line, payloadAt: place.line) {
      if relative >= placed.writtenKey, relative < placed.writtenValue.lowerBound {
        return (renamed, placed.key)
      }
      if placed.writtenValue.contains(relative) {
        let inside = relative - placed.writtenValue.lowerBound
        return (renamed, placed.value + (placed.isScaled ? 0 : inside))
      }
    }
    return (renamed, nil)
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
