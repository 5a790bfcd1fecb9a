/**
 * Prometheus metrics of the HTTP layer: request counts and a latency histogram by route and
 * status. Plain counters in maps (a label pair is looked up once per request), rendered in the
 * text exposition format on demand.
 */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Series {
  readonly route: string
  readonly status: number
  count: number
  sum: number
  readonly buckets: Array<number>
}

export interface HttpMetrics {
  /** `route` is the endpoint id (`accounts.balance`) or `unmatched`; duration in seconds. */
  readonly observe: (route: string, status: number, seconds: number) => void
  readonly render: () => string
}

export const makeHttpMetrics = (): HttpMetrics => {
  const series = new Map<string, Series>()
  const observe = (route: string, status: number, seconds: number) => {
    const key = route + " " + status
    let s = series.get(key)
    if (s === undefined) {
      s = { route, status, count: 0, sum: 0, buckets: BUCKETS.map(() => 0) }
      series.set(key, s)
    }
    s.count++
    s.sum += seconds
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) s.buckets[i]!++
  }
  const render = () => {
    const lines = [
      "# HELP movenode_http_requests_total HTTP requests by route and status.",
      "# TYPE movenode_http_requests_total counter"
    ]
    for (const s of series.values())
      lines.push(`movenode_http_requests_total{route="${s.route}",status="${s.status}"} ${s.count}`)
    lines.push(
      "# HELP movenode_http_request_duration_seconds HTTP request latency by route and status.",
      "# TYPE movenode_http_request_duration_seconds histogram"
    )
    for (const s of series.values()) {
      const labels = `route="${s.route}",status="${s.status}"`
      for (let i = 0; i < BUCKETS.length; i++)
        lines.push(`movenode_http_request_duration_seconds_bucket{${labels},le="${BUCKETS[i]}"} ${s.buckets[i]}`)
      lines.push(`movenode_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${s.count}`)
      lines.push(`movenode_http_request_duration_seconds_sum{${labels}} ${s.sum}`)
      lines.push(`movenode_http_request_duration_seconds_count{${labels}} ${s.count}`)
    }
    return lines.join("\n") + "\n"
  }
  return { observe, render }
}
