"""The partitioned build on Dask clusters (skipped only where dask is not installed): the same
values as today's builder, and a worker killed in the middle of a layer costs no value."""

import pytest

pytest.importorskip("dask.distributed")

from dask.distributed import LocalCluster  # noqa: E402
from dying_workers import KilledAlways, KilledOnce  # noqa: E402

from zerosum.games.connect4 import ConnectFour  # noqa: E402
from zerosum.games.tictactoe import TicTacToe  # noqa: E402
from zerosum.solve import parallel, partitioned, solve  # noqa: E402
from zerosum.solve.partitioned import build  # noqa: E402


@pytest.fixture(autouse=True)
def every_step_on_the_workers(monkeypatch):
    """Small steps run in the building process; these boards are all small."""
    monkeypatch.setattr(partitioned, "HERE_AT_MOST", 0)


@pytest.fixture(scope="module")
def scheduler():
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_a_dask_cluster_of_two_workers_builds_todays_connect4_4x4_table(scheduler, tmp_path):
    game = ConnectFour(4, 4)
    built = build(game, tmp_path / "work", partitions=4, scheduler=scheduler)
    assert built.table().sections == solve(game, workers=1).sections


def test_a_worker_killed_in_the_middle_of_a_layer_costs_no_value(scheduler, tmp_path):
    marker = tmp_path / "killed"
    game = KilledOnce(4, 4, 7, str(marker))
    built = build(game, tmp_path / "work", partitions=4, scheduler=scheduler)
    assert marker.exists()  # a worker did die
    assert built.table().sections == solve(ConnectFour(4, 4), workers=1).sections


def test_a_build_stopped_on_the_cluster_is_finished_in_one_process(scheduler, tmp_path):
    game, work = ConnectFour(4, 3), tmp_path / "work"

    def stop(report):
        if report.phase == "propagate" and report.layer == 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(game, work, partitions=3, scheduler=scheduler, progress=stop)
    finished = build(game, work, partitions=3)
    assert finished.resumed > 0
    assert finished.table().sections == solve(game, workers=1).sections


def test_a_scheduler_that_does_not_answer_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler"):
        build(TicTacToe(), tmp_path / "work", scheduler="tcp://127.0.0.1:9")


def test_the_command_builds_by_partitions_on_a_scheduler(scheduler, tmp_path, cli):
    path = tmp_path / "c.zt"
    argv = ["tablebase", "build", "connect4", "--width", "4", "--height", "3", "-o", str(path)]
    report = cli.json(*argv, "--work-dir", str(tmp_path / "w"), "--scheduler", scheduler)
    today = solve(ConnectFour(4, 3), workers=1)
    assert report["positions"] == today.counts.positions
    assert report["partitions"] == 4  # two for each of the two workers
    assert cli.json("tablebase", "info", str(path))["layers"] == [
        {"layer": layer, **vars(counts)} for layer, counts in today.layers.items()
    ]


def test_workers_that_keep_dying_stop_the_build_with_one_line(tmp_path):
    import dask

    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        pytest.raises(ValueError, match="the Dask workers running a task died each time"),
    ):
        build(
            KilledAlways(4, 4), tmp_path / "work", partitions=2, scheduler=cluster.scheduler_address
        )
    assert (tmp_path / "work" / "layer-003" / "enumerated.json").exists()  # what was finished
