/// The HTML page of a report, whole: markup, style and script, with no request of any kind —
/// no font, image, stylesheet or script from elsewhere — so that it works offline and from a
/// file. The report's data goes in a `<script type="application/json">` element that the
/// script reads, never into the markup.
///
/// ```swift
/// let page = ReportPage.markup(data: escapedJSON)
/// ```
enum ReportPage {
  /// The page, with the data in place and a Content-Security-Policy that allows nothing but
  /// the page's own script and style, by their hashes.
  static func markup(data: [UInt8]) -> [UInt8] {
    let scriptHash = SHA256.base64Digest(of: Array(script.utf8))
    let styleHash = SHA256.base64Digest(of: Array(style.utf8))
    var page: [UInt8] = []
    page.reserveCapacity(data.count + script.utf8.count + style.utf8.count + 4096)
    page += Array(
      """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
      script-src 'sha256-\(scriptHash)'; style-src 'sha256-\(styleHash)'; img-src 'none'; \
      base-uri 'none'; form-action 'none'">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <meta name="generator" content="rasp report">
      <title>rasp report</title>
      <style>
      """.utf8)
    page += Array(style.utf8)
    page += Array("</style>\n</head>\n".utf8)
    page += Array(body.utf8)
    page += Array("<script type=\"application/json\" id=\"rasp-data\">".utf8)
    page += data
    page += Array("</script>\n<script>".utf8)
    page += Array(script.utf8)
    page += Array("</script>\n</body>\n</html>\n".utf8)
    return page
  }

  /// The page's markup, which the script fills in.
  static let body = #"""
    <body>
    <header class="top">
      <div class="wrap">
        <p class="kicker">rasp report</p>
        <h1 id="title">Replay report</h1>
        <p id="subtitle" class="subtitle"></p>
      </div>
    </header>
    <main class="wrap">
      <p id="empty" class="notice" hidden>This log has no events: there is nothing to replay. The
        counts below say what was read.</p>
      <section id="summary" class="card" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary</h2>
        <dl id="figures" class="figures"></dl>
        <p id="stats-line" class="mono muted"></p>
        <div id="domain-bar" class="domain-bar" aria-hidden="true"></div>
        <div id="problems">
          <h3>Lines not applied</h3>
          <p id="skipped-none" class="muted">None: every line was applied.</p>
          <ol id="skipped-list" class="problems mono"></ol>
          <ol id="ignored-list" class="ignored mono"></ol>
          <p id="ignored-note" class="muted"></p>
        </div>
      </section>
      <section id="timeline-section" class="card" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <div id="legend-domains" class="legend"></div>
        <div class="timeline-box"><svg id="timeline" viewBox="0 0 1000 64"
          preserveAspectRatio="none" role="img"
          aria-label="Events over time, by domain"></svg></div>
        <div id="axis" class="axis mono"></div>
        <div class="scrubber">
          <button id="previous" type="button" aria-label="Previous event">&#8592;</button>
          <input id="scrubber" type="range" min="0" max="0" value="0" step="1" aria-label="Event">
          <button id="next" type="button" aria-label="Next event">&#8594;</button>
          <label class="event-number">Event <input id="event-number" type="number" min="0"
            value="0" inputmode="numeric"> <span id="event-total" class="muted"></span></label>
          <label id="key-label" class="key-label" hidden>Key <select
            id="key-picker"></select></label>
        </div>
        <p id="event-line" class="event-line"></p>
        <div id="violations" hidden>
          <h3>Assertions violated</h3>
          <p id="violations-note" class="muted"></p>
          <ol id="violations-list" class="violations mono"></ol>
        </div>
      </section>
      <div class="split">
        <section id="snapshot-section" class="card" aria-labelledby="snapshot-heading">
          <div class="card-head">
            <h2 id="snapshot-heading">Snapshot</h2>
            <div class="tabs"><button id="show-tree" type="button"
              class="tab on">Tree</button><button id="show-json" type="button"
              class="tab">JSON</button></div>
          </div>
          <div id="tree" class="tree mono"></div>
          <pre id="snapshot-json" class="json mono" hidden></pre>
        </section>
        <section id="diff-section" class="card" aria-labelledby="diff-heading">
          <h2 id="diff-heading">Changes made by this event</h2>
          <table id="diff" class="diff mono"><tbody></tbody></table>
          <p id="diff-none" class="muted" hidden>This event changed nothing.</p>
          <pre id="diff-json" class="json mono" hidden></pre>
        </section>
      </div>
      <section id="track-section" class="card" aria-labelledby="track-heading" hidden>
        <h2 id="track-heading">Geo track</h2>
        <p id="track-note" class="muted"></p>
        <div class="track-box"><svg id="track" viewBox="0 0 600 400" role="img"
          aria-label="The path of geo.location"></svg></div>
      </section>
      <section id="plots-section" class="card" aria-labelledby="plots-heading" hidden>
        <h2 id="plots-heading">Numeric fields</h2>
        <p id="plots-note" class="muted"></p>
        <div id="legend-series" class="legend"></div>
        <div id="plots" class="plots"></div>
      </section>
    <section id="details" class="card" aria-labelledby="details-heading">
        <h2 id="details-heading">Events by domain and type</h2>
        <div id="type-tables" class="type-tables"></div>
        <h3>Command</h3>
        <p id="options" class="mono"></p>
      </section>
      </main>
    <div id="tooltip" class="tooltip mono" hidden></div>

    """#
}
