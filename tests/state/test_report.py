"""Report arithmetic (tokenjuice.state.report): days and --since in a time zone."""




def test_report_day_boundaries_follow_the_zone():
    from datetime import timezone

    from tokenjuice.state.report import day_of, since_timestamp, timezone_named

    moment = 1795305600.0  # 2026-11-22T00:00:00Z
    assert day_of(moment - 1, timezone.utc) == "2026-11-21"
    assert day_of(moment - 1, timezone_named("Asia/Tokyo")) == "2026-11-22"
    assert since_timestamp("2026-11-22", timezone.utc) == moment
    assert since_timestamp("2d", None, now=moment) == moment - 2 * 86400
