"""`masa bench`: choosing benchmarks and writing their sections."""

from controller.bench import percentile, write_section
from controller.cli import main
from controller.cmd_bench import modules_for


def test_groups_and_single_modules():
    assert modules_for("engine_table") == ["engine_table"]
    engine = modules_for("engine")
    assert {"engine_macao", "engine_table", "engine_tintar"} <= set(engine)
    assert all(n.startswith("engine_") for n in engine)
    assert set(modules_for("all")) >= set(engine) | set(modules_for("vision"))


def test_unknown_benchmark_is_exit_2(capsys):
    assert main(["bench", "nonsense"]) == 2
    assert "no benchmark 'nonsense'" in capsys.readouterr().err


def test_write_section_replaces_only_its_own_section(tmp_path):
    doc = tmp_path / "b.md"
    write_section(doc, "a", "first A")
    write_section(doc, "b", "only B")
    write_section(doc, "a", "second A")
    text = doc.read_text()
    assert "second A" in text and "first A" not in text and "only B" in text
    assert text.count("<!-- bench:a -->") == 1


def test_percentile_nearest_rank():
    assert percentile([], 50) == 0.0
    assert percentile([3, 1, 2], 50) == 2
    assert percentile(list(range(1, 101)), 99) == 99
