import Testing
import RaspDomains

@Suite struct GeoDomainTests {
  @Test func decodesHeadingsAndLocations() {
    var replay = LogReplay([GeoDomain()])
    #expect(replay.json() == #"{"accuracy":null,"heading":null,"location":null}"#)
    let outcomes = replay.send([
      #"{"type":"geo.heading","payload":{"heading":0}}"#,
      #"{"type":"geo.heading","payload":{"heading":360,"magnetic":true}}"#,
      #"{"type":"geo.location","payload":{"longitude":-180,"latitude":90,"accuracy":12.5}}"#,
      #"{"type":"geo.location","payload":{"latitude":-90,"longitude":180,"accuracy":null}}"#,
      #"{"type":"geo.location","payload":{"latitude":52.520008,"longitude":13.404954}}"#,
    ])
    #expect(
      outcomes == [
        #"{"accuracy":null,"heading":0,"location":null}"#,
        #"{"accuracy":null,"heading":360,"location":null}"#,
        #"{"accuracy":12.5,"heading":360,"location":{"latitude":90,"longitude":-180}}"#,
        #"{"accuracy":null,"heading":360,"location":{"latitude":-90,"longitude":180}}"#,
        #"{"accuracy":null,"heading":360,"location":{"latitude":52.520008,"longitude":13.404954}}"#,
      ])
  }

  @Test func reportsEveryPayloadError() {
    var replay = LogReplay([GeoDomain()])
    let outcomes = replay.send([
      #"{"type":"geo.heading"}"#,
      #"{"type":"geo.heading","payload":{"heading":"east"}}"#,
      #"{"type":"geo.heading","payload":{"heading":-0.5}}"#,
      #"{"type":"geo.location","payload":{"latitude":91,"longitude":0}}"#,
      #"{"type":"geo.location","payload":{"latitude":0,"longitude":-181}}"#,
      #"{"type":"geo.location","payload":{"longitude":0}}"#,
      #"{"type":"geo.location","payload":{"latitude":0,"longitude":0,"accuracy":"5m"}}"#,
    ])
    #expect(
      outcomes == [
        "col 1: missing required field 'payload.heading'",
        "col 44: field 'payload.heading' must be a number, found a string",
        "col 44: invalid value for field 'payload.heading': must be between 0 and 360, found -0.5",
        "col 46: invalid value for field 'payload.latitude': must be between -90 and 90, found 91",
        "col 60: invalid value for field 'payload.longitude': "
          + "must be between -180 and 180, found -181",
        "col 34: missing required field 'payload.latitude'",
        "col 73: field 'payload.accuracy' must be a number, found a string",
      ])
  }

  @Test func encodesEveryCombination() {
    #expect(
      encoded(GeoDomain(), GeoState(heading: 90))
        == #"{"accuracy":null,"heading":90,"location":null}"#)
    let fix = GeoState(
      heading: nil, location: GeoLocation(latitude: 48.8566, longitude: 2.3522), accuracy: 0)
    #expect(
      encoded(GeoDomain(), fix)
        == #"{"accuracy":0,"heading":null,"location":{"latitude":48.8566,"longitude":2.3522}}"#)
  }
}
