"""The protocol benchmark's figures: computed from what it measured."""

from __future__ import annotations

import json

from server.bench import BenchReport


def test_bench_report_prints_medians_percentiles_and_the_delta_to_snapshot_ratio() -> None:
    report = BenchReport(games=1, players=2, actions=4, delta_bytes=[10, 20, 30, 40, 500],
                         snapshot_bytes=[1000, 3000], delta_us=[5.0, 7.0, 9.0])
    figures = json.loads(report.to_json())
    assert figures["deltas"] == 5
    assert figures["median_delta_bytes"] == 30
    assert figures["median_snapshot_bytes"] == 2000
    assert figures["delta_to_snapshot_ratio"] == 0.015
    assert figures["median_delta_us_per_view_class"] == 7.0
    assert figures["p90_delta_bytes"] > 40  # the large delta shows in the tail


def test_bench_report_quartiles_show_a_bimodal_cost() -> None:
    """Cheap deltas (priority passes) and dear ones (objects rebuilt): the quartiles sit in
    each mode and the median between them."""
    report = BenchReport(delta_us=[10.0] * 50 + [100.0] * 50)
    figures = json.loads(report.to_json())
    assert figures["q1_delta_us_per_view_class"] == 10.0
    assert figures["q3_delta_us_per_view_class"] == 100.0
    assert figures["median_delta_us_per_view_class"] == 55.0


def test_an_empty_report_has_zero_figures_rather_than_failing() -> None:
    figures = json.loads(BenchReport().to_json())
    assert figures["deltas"] == 0 and figures["delta_to_snapshot_ratio"] == 0.0
