import Testing
import RaspDomains

@Suite struct GeoStateTests {
  @Test func headingAndLocationUpdateIndependently() {
    var geo = GeoState()
    geo.apply(event: .heading(271.5))
    geo.apply(event: .location(GeoLocation(latitude: 52.52, longitude: 13.405), accuracy: 5))
    geo.apply(event: .heading(273))
    #expect(
      geo
        == GeoState(
          heading: 273, location: GeoLocation(latitude: 52.52, longitude: 13.405), accuracy: 5))
  }

  @Test func aLocationWithoutAccuracyForgetsTheOldAccuracy() {
    var geo = GeoState(location: GeoLocation(latitude: 1, longitude: 2), accuracy: 5)
    geo.apply(event: .location(GeoLocation(latitude: 3, longitude: 4), accuracy: nil))
    #expect(geo.accuracy == nil)
    #expect(geo.location == GeoLocation(latitude: 3, longitude: 4))
    #expect(GeoState.throwsBeforeMutating)
  }
}
