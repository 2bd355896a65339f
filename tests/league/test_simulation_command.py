"""`manage.py simulate`: a job from the command line, its progress bar and its summary.

Tasks run in-process here, and the job's first chunks are queued on commit: the tests use
a transactional database so the command's commits run them.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from league import simulation
from league.management.commands.simulate import progress_bar
from league.models import SimulationChunk, SimulationJob

pytestmark = pytest.mark.django_db(transaction=True)


def simulate(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_runs_a_job_with_a_progress_bar_and_prints_the_summary() -> None:
    out, err = simulate("super_showdown", "--matches", "6", "--bots", "random,heuristic",
                        "--chunk", "2", "--seed", "11")
    job = SimulationJob.objects.get()
    assert (job.status, job.done_matches, job.seed, job.bots) == (
        "done", 6, 11, ["random", "heuristic"])
    assert f"Simulation {job.pk}: 6 matches of super_showdown" in err
    assert "[##########...................." in err and "2/6  33%" in err
    assert "[##############################] 6/6 100%" in err
    assert f"Simulation {job.pk} done: 6 of 6 matches of super_showdown, seed 11." in out
    assert "random" in out and "heuristic" in out and "95% interval" in out
    assert "First player:" in out and "Length: mean" in out


def test_a_balance_run_prints_each_entity() -> None:
    out, _ = simulate("superstar_showdown", "--matches", "4", "--bots", "random,random",
                      "--balance", "--logs", "--options", '{"round_limit": 5}')
    job = SimulationJob.objects.get()
    assert job.balance and job.logs and job.options == {"round_limit": 5}
    assert "(balance)" in out and "superstar" in out
    assert any(row["name"] in out for row in job.summary["by_entity"])
    assert f"/api/simulations/{job.pk}/logs/" in out
    # Both seats open at once: no first player to rate.
    assert "No first player" in out and "First player:" not in out


@pytest.mark.parametrize(("args", "code"), [
    (["chess", "--matches", "3", "--bots", "random,random"], "[unknown_game]"),
    (["super_showdown", "--matches", "3", "--bots", "random,alphago"], "[unknown_bot]"),
    (["super_showdown", "--matches", "3", "--bots", "random"], "[bad_seat_count]"),
    (["super_showdown", "--matches", "0", "--bots", "random,random"], "[bad_matches]"),
    (["super_showdown", "--matches", "3", "--bots", "random,random", "--options",
      '{"best_of": 4}'], "[bad_option]"),
    (["super_showdown", "--matches", "3", "--bots", "random,random", "--options", "{best"],
     "[bad_option]"),
    (["super_showdown", "--matches", "3", "--bots", "random,random", "--options", "null"],
     "[bad_option]"),
    (["super_showdown", "--matches", "3", "--bots", "random,random", "--chunk", "0"],
     "[bad_chunk]"),
    (["--resume", "999"], "[not_found]"),
    (["--follow", "999"], "[not_found]"),
    (["super_showdown", "--bots", "random,random"], "[bad_matches]"),
    (["super_showdown", "--matches", "abc", "--bots", "random,random"], "[bad_matches]"),
    (["super_showdown", "--matches", "1.5", "--bots", "random,random"], "[bad_matches]"),
    (["super_showdown", "--matches", "3", "--bots", " , "], "[bad_seat_count]"),
    # A place left empty is a seat named no bot, not a seat fewer.
    (["ultimate_showdown", "--matches", "3", "--bots", "random,,heuristic"],
     "[bad_seat_count] Seat 2 names no bot"),
    (["super_showdown", "--matches", "3", "--bots", "random,heuristic,"],
     "[bad_seat_count] Seat 3 names no bot"),
    (["super_showdown", "--matches", "3"], "[bad_seat_count]"),
    (["super_showdown", "--matches", "3", "--bots", "random,random", "--chunk", "x"],
     "[bad_chunk]"),
    (["super_showdown", "--matches", "3", "--bots", "random,random", "--seed", "one"],
     "[bad_seed]"),
    ([], "[unknown_game]"),
])
def test_a_refused_job_is_a_command_error_and_writes_nothing(args: list[str], code: str) -> None:
    with pytest.raises(CommandError) as refused:
        simulate(*args)
    assert code in str(refused.value)
    assert not SimulationJob.objects.exists() and not SimulationChunk.objects.exists()


def test_no_wait_prints_the_job_and_returns() -> None:
    out, _ = simulate("super_showdown", "--matches", "2", "--bots", "random,random",
                      "--no-wait")
    job = SimulationJob.objects.get()
    assert f"Simulation {job.pk} queued" in out and "95% interval" not in out
    assert f"--follow {job.pk}" in out


@pytest.fixture
def no_worker(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """A broker that no worker reads: what was sent to it."""
    from league import sim_tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(sim_tasks.run_chunk, "delay", lambda *args: sent.append(args))
    return sent


def test_resume_requeues_a_crashed_jobs_chunks_and_waits_for_it(
        no_worker: list[tuple[Any, ...]], settings: Any) -> None:
    job = simulation.create_job(game="super_showdown", bots=["random", "random"], matches=6,
                                chunk=2, seed=5)
    assert no_worker == [(job.pk, 0), (job.pk, 1), (job.pk, 2)]
    assert simulation.run_chunk(job.pk, 0)
    assert simulation._claim(job.pk, 1) is not None  # then its worker crashed
    settings.CELERY_TASK_ALWAYS_EAGER = True  # a worker again (this process)
    out, err = simulate("--resume", str(job.pk))
    job.refresh_from_db()
    assert "2 chunks queued again" in err and "6/6 100%" in err
    assert f"Simulation {job.pk} done: 6 of 6" in out
    assert list(job.chunks.values_list("attempts", flat=True)) == [1, 2, 1]


def test_cancel_from_the_command_line_keeps_what_finished(
        no_worker: list[tuple[Any, ...]]) -> None:
    job = simulation.create_job(game="super_showdown", bots=["random", "random"], matches=4,
                                chunk=2, seed=1)
    assert simulation.run_chunk(job.pk, 0)
    out, _ = simulate("--cancel", str(job.pk))
    assert f"Cancelled simulation {job.pk}: 2 of 4 matches kept." in out
    with pytest.raises(CommandError, match=r"\[job_cancelled\]"):
        simulate("--resume", str(job.pk))


def test_ctrl_c_while_the_chunks_play_in_this_process_names_the_job_to_resume(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a broker the chunks play inside the command: Ctrl-C there was a traceback
    that left the job running with no word of how to finish it."""
    real, plays = simulation.play_chunk, []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        plays.append(1)
        if len(plays) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(simulation, "play_chunk", interrupted)
    with pytest.raises(CommandError) as stopped:
        simulate("super_showdown", "--matches", "6", "--bots", "random,random", "--chunk", "2",
                 "--seed", "1")
    job = SimulationJob.objects.get()
    assert stopped.value.returncode == 130
    assert f"--resume {job.pk}` plays the rest" in str(stopped.value)
    monkeypatch.setattr(simulation, "play_chunk", real)
    out, _ = simulate("--resume", str(job.pk))
    assert f"Simulation {job.pk} done: 6 of 6" in out
    job.refresh_from_db()
    assert (job.status, job.done_matches, job.totals["matches"]) == ("done", 6, 6)


def test_a_job_that_finished_no_match_reports_no_first_player_or_length(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its empty summary read as a game whose seats all open at once, of 0-event matches."""
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the bot fell over")

    monkeypatch.setattr(simulation, "play_one", broken)
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"\[job_failed\]") as failed:
        call_command("simulate", "super_showdown", "--matches", "4", "--bots",
                     "random,random", "--chunk", "2", "--seed", "1", stdout=out,
                     stderr=io.StringIO())
    assert failed.value.returncode == 1  # a script's next step does not read it as done
    out = out.getvalue()
    job = SimulationJob.objects.get()
    assert f"Simulation {job.pk} failed: 0 of 4 matches" in out
    assert "Error: Chunk 0: RuntimeError: the bot fell over" in out
    assert "No match finished" in out
    assert "No first player" not in out and "Length:" not in out


def test_the_progress_bar_reads_as_a_fraction() -> None:
    assert progress_bar(0, 10) == "[..............................] 0/10   0%"
    assert progress_bar(5, 10, 12.34) == (
        "[###############...............] 5/10  50%  12.3 matches/s")
    assert progress_bar(2000, 2000).startswith("[" + "#" * 30 + "] 2,000/2,000 100%")


def test_follow_waits_for_a_job_and_queues_nothing(
        no_worker: list[tuple[Any, ...]], settings: Any) -> None:
    """--resume was the way to follow a job, and it queued every chunk in flight again."""
    job = simulation.create_job(game="super_showdown", bots=["random", "random"], matches=4,
                                chunk=2, seed=5)
    assert simulation.run_chunk(job.pk, 0) and simulation.run_chunk(job.pk, 1)
    sent = len(no_worker)
    out, err = simulate("--follow", str(job.pk))
    assert len(no_worker) == sent and "queued again" not in err
    assert "4/4 100%" in err and f"Simulation {job.pk} done: 4 of 4" in out
    assert list(job.chunks.values_list("attempts", flat=True)) == [1, 1]


def test_a_job_of_one_match_is_announced_as_one_match_in_one_chunk() -> None:
    _, err = simulate("super_showdown", "--matches", "1", "--bots", "random,random",
                      "--seed", "4")
    job = SimulationJob.objects.get()
    assert (job.status, job.done_matches, job.chunk_count) == ("done", 1, 1)
    assert (f"Simulation {job.pk}: 1 match of super_showdown (random, random) in 1 chunk, "
            "seed 4.") in err


def test_the_summary_numbers_seats_from_1_as_the_balance_report_does() -> None:
    out, _ = simulate("super_showdown", "--matches", "2", "--bots", "random,heuristic",
                      "--seed", "3")
    rows = [line.split()[:3] for line in out.splitlines()
            if line.split()[1:2] in (["random"], ["heuristic"])]
    assert rows == [["1", "random", "2"], ["2", "heuristic", "2"]]
