import Testing
import RaspReplay
import RaspDomains

@Suite struct RaspBuiltinDomainsTests {
  @Test func listsTheSixDomainsInNameOrder() {
    #expect(
      RaspBuiltinDomains.all.map(\.name) == ["data", "geo", "lifecycle", "motion", "nav", "rest"])
  }

  @Test func theInitialSnapshotHoldsEveryDomain() {
    let snapshot = SnapshotState(domains: RaspBuiltinDomains.all)
    #expect(
      String(decoding: snapshot.json(), as: UTF8.self) == """
        {"data":{},"geo":{"accuracy":null,"heading":null,"location":null},\
        "lifecycle":{"changedAt":null,"launches":0,"memoryWarnings":0,"phase":"notRunning"},\
        "motion":{"activity":null,"confidence":null,"sample":null},\
        "nav":{"modal":null,"stack":[],"tab":null},"rest":{"links":{}}}
        """)
  }

  @Test func everyDomainDescribesEveryEventAndField() {
    for domain in RaspBuiltinDomains.all {
      #expect(!domain.summary.isEmpty)
      #expect(!domain.events.isEmpty)
      #expect(
        Set(domain.events.map(\.name)).count == domain.events.count,
        "\(domain.name): duplicate event")
      for event in domain.events {
        #expect(event.summary.hasSuffix("."), "\(domain.name).\(event.name)")
        for field in event.fields {
          #expect(
            field.summary.hasSuffix(".") && !field.type.isEmpty,
            "\(domain.name).\(event.name).\(field.name)")
        }
      }
    }
  }
}
