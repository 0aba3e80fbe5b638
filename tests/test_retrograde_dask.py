"""The layered build on a Dask cluster (skipped only where dask is not installed)."""

import pytest

pytest.importorskip("dask.distributed")

from dask.distributed import LocalCluster  # noqa: E402

from zerosum.games.connect4 import ConnectFour  # noqa: E402
from zerosum.games.tictactoe import TicTacToe  # noqa: E402
from zerosum.solve import Table, parallel, retrograde, solve  # noqa: E402


@pytest.fixture(scope="module")
def scheduler():
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_dask_cluster_builds_the_same_tictactoe_table(scheduler, monkeypatch):
    monkeypatch.setattr(retrograde, "MIN_CHUNK", 100)  # several tasks a layer on the cluster
    game = TicTacToe()
    table = solve(game, scheduler=scheduler)
    assert table.sections == solve(game, workers=1).sections
    assert (table.counts.positions, table.counts.terminal) == (5478, 958)


def test_dask_cluster_builds_connect4_3x4_from_the_command_line(scheduler, tmp_path, cli):
    path = tmp_path / "c4.tb"
    argv = ["tablebase", "build", "connect4", "--width", "3", "--height", "4", "-o", str(path)]
    assert cli(*argv, "--scheduler", scheduler).code == 0
    game = ConnectFour(3, 4)
    assert Table.load(path, game).sections == solve(game, workers=1).sections


def test_unreachable_scheduler_is_a_value_error(monkeypatch):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler"):
        solve(TicTacToe(), scheduler="tcp://127.0.0.1:9")
