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


def test_card_scoring_counts_reports_where_no_card_lies():
    """A right card, a wrong one, a back found, and a report on the bare cloth: the last counts
    against "reports where no card lies", whatever its kind."""
    from controller.bench.vision_cards import score_scene
    square = lambda x: [[x, 0], [x + 50, 0], [x + 50, 70], [x, 70]]
    truth = {"cards": [{"card": "AS", "face": "up", "visible": 1.0, "index_visible": True, "quad": square(0)},
                       {"card": "2H", "face": "up", "visible": 1.0, "index_visible": True, "quad": square(100)},
                       {"card": "3C", "face": "down", "visible": 1.0, "index_visible": False, "quad": square(200)}]}
    found = [{"card": "AS", "face": "up", "quad": square(2)},
             {"card": "2D", "face": "up", "quad": square(102)},
             {"card": None, "face": "down", "quad": square(201)},
             {"card": None, "face": "down", "quad": square(400)}]
    c = score_scene(truth, found)
    assert (c["full_right"], c["full_wrong"], c["down_right"]) == (1, 1, 1)
    assert (c["reports"], c["no_card"]) == (4, 1)
    assert c["up_called_down"] == 0 and c["down_called_up"] == 0


def test_card_scoring_counts_reports_of_the_wrong_side():
    """A face-up king reported face down and a back reported face up (unnamed) count as the wrong
    side; a report on a card mostly hidden under another does not."""
    from controller.bench.vision_cards import score_scene
    square = lambda x: [[x, 0], [x + 50, 0], [x + 50, 70], [x, 70]]
    truth = {"cards": [{"card": "KH", "face": "up", "visible": 1.0, "index_visible": True, "quad": square(0)},
                       {"card": "3C", "face": "down", "visible": 1.0, "index_visible": False, "quad": square(100)},
                       {"card": "4C", "face": "up", "visible": 0.3, "index_visible": True, "quad": square(200)}]}
    found = [{"card": None, "face": "down", "quad": square(1)},
             {"card": None, "face": "up", "quad": square(101)},
             {"card": None, "face": "down", "quad": square(201)}]
    c = score_scene(truth, found)
    assert (c["up_called_down"], c["down_called_up"]) == (1, 1)


def test_card_scoring_counts_courts_that_print_no_rank_apart():
    """A guyenne-classic queen (a suit sign in the corner, no rank letter) counts as an index-only
    card and, apart, as a rankless court; its number card and another pack's queen do not."""
    from controller.bench.vision_cards import _rankless_line, score_scene
    square = lambda x: [[x, 0], [x + 50, 0], [x + 50, 70], [x, 70]]
    truth = {"cards": [{"card": "QH", "face": "up", "visible": 0.4, "index_visible": True, "quad": square(0),
                        "deck": "guyenne-classic"},
                       {"card": "5H", "face": "up", "visible": 0.4, "index_visible": True, "quad": square(100),
                        "deck": "guyenne-classic"},
                       {"card": "QS", "face": "up", "visible": 0.4, "index_visible": True, "quad": square(200),
                        "deck": "anglo"}]}
    found = [{"card": "5H", "face": "up", "quad": square(101)}, {"card": "QS", "face": "up", "quad": square(201)}]
    c = score_scene(truth, found)
    assert (c["index_total"], c["index_right"]) == (3, 2)
    assert (c["index_rankless_total"], c["index_rankless_right"]) == (1, 0)
    assert c["full_rankless_total"] == 0
    line = _rankless_line(c)
    assert "index-only 1 (named 0; recall of the others 100.00% (2/2))" in line
    assert "fully visible 0 (named 0; recall of the others n/a)" in line
