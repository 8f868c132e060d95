"""The answer's text is sent a few words at a time: when the interval since the
turn's last frame has passed, when enough has gathered, or ahead of the next
fragment — in order, and all of it. A fake clock decides what is due; no test
here depends on how fast the machine is."""

from __future__ import annotations

import asyncio
import re

import pytest

from bankbot.streaming import TextCoalescer, TurnStream

INTERVAL = 0.04


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def coalescer(clock: FakeClock, max_chars: int = 200) -> TextCoalescer:
    return TextCoalescer(interval=INTERVAL, max_chars=max_chars, clock=clock)


def test_it_holds_text_that_follows_a_frame_within_the_interval(clock):
    text = coalescer(clock)  # made as the turn's opening frame goes
    clock.advance(0.01)
    assert text.add("Your ") is False
    assert text.due_in() == pytest.approx(0.03)


def test_held_text_is_due_once_the_interval_has_passed(clock):
    text = coalescer(clock)
    text.add("Your ")
    clock.advance(INTERVAL)
    assert text.due_in() == 0


def test_text_after_a_quiet_interval_is_due_at_once(clock):
    text = coalescer(clock)
    clock.advance(5)  # a slow model: the first word comes long after the opening
    text.add("Your ")
    assert text.due_in() == 0


def test_it_is_due_at_once_when_enough_text_has_gathered(clock):
    text = coalescer(clock, max_chars=10)
    assert text.add("12345") is False
    assert text.add("67890") is True
    assert text.due_in() == 0


def test_nothing_held_is_never_due(clock):
    text = coalescer(clock)
    clock.advance(5)
    assert text.due_in() is None


def test_take_returns_all_held_text_in_order_and_restarts_the_interval(clock):
    text = coalescer(clock)
    for word in ["Your ", "statement ", "is ", "ready."]:
        text.add(word)
    clock.advance(1)
    assert text.take() == "Your statement is ready."
    assert text.due_in() is None
    text.add("More")
    assert text.due_in() == pytest.approx(INTERVAL)


# --- TurnStream: the pipe from the turn's thread to the channel layer ---------


class Sent(list):
    async def __call__(self, frame: str) -> None:
        self.append(frame)


def stream_for(sent: Sent, clock: FakeClock, max_chars: int = 200) -> TurnStream:
    return TurnStream(
        sent, lambda text: f"<t>{text}</t>", interval=INTERVAL, max_chars=max_chars, clock=clock
    )


def text_of(frames: list[str]) -> list[str]:
    return [text for frame in frames for text in re.findall(r"<t>(.*?)</t>", frame)]


async def until(condition) -> None:
    """A bounded wait for the stream's task to catch up (nothing asserts on time)."""
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.001)


async def test_held_text_goes_ahead_of_the_next_fragment_in_the_same_frame(clock):
    sent = Sent()
    stream = stream_for(sent, clock)  # the clock never moves: text is never due by time
    stream.text("Here ")
    stream.text("it is:")
    stream.fragment("<table>T-1001</table>")
    stream.text(" done.")
    await stream.close()
    assert sent == ["<t>Here it is:</t><table>T-1001</table>", "<t> done.</t>"]


async def test_every_word_arrives_once_and_in_order(clock):
    sent = Sent()
    stream = stream_for(sent, clock, max_chars=50)
    words = [f"w{n} " for n in range(40)]
    for word in words:
        stream.text(word)
    stream.fragment("<div>final</div>")
    await stream.close()
    texts = text_of(sent)
    assert "".join(texts) == "".join(words)
    assert sent[-1].endswith("<div>final</div>")
    assert all(len(text) >= 50 for text in texts[:-1])  # sent as enough gathered
    assert stream.frames == len(sent) < len(words)


async def test_held_text_goes_when_its_time_comes_without_more_text(clock):
    sent = Sent()
    stream = stream_for(sent, clock)
    stream.text("Your statement")
    for _ in range(5):
        await asyncio.sleep(0)
    assert sent == []  # the fake clock has not moved: not due
    clock.advance(INTERVAL)
    await until(lambda: sent)
    assert sent == ["<t>Your statement</t>"]
    await stream.close()
    assert sent == ["<t>Your statement</t>"]


async def test_text_after_a_quiet_interval_goes_at_once(clock):
    sent = Sent()
    stream = stream_for(sent, clock)
    clock.advance(1)
    stream.text("Your ")
    await until(lambda: sent)
    assert sent == ["<t>Your </t>"]
    await stream.close()


async def test_a_fragment_with_no_text_held_goes_alone_and_an_empty_turn_sends_nothing(clock):
    sent = Sent()
    stream = stream_for(sent, clock)
    stream.fragment("<table></table>")
    await stream.close()
    assert sent == ["<table></table>"]
    empty = Sent()
    await stream_for(empty, clock).close()
    assert empty == []


async def test_text_from_another_thread_arrives_in_order(clock):
    sent = Sent()
    stream = stream_for(sent, clock, max_chars=30)
    words = [f"w{n} " for n in range(200)]

    def worker() -> None:  # as the turn's thread does
        for word in words:
            stream.text(word)
        stream.fragment("<div>final</div>")

    await asyncio.to_thread(worker)
    await stream.close()
    assert "".join(text_of(sent)) == "".join(words)
    assert sent[-1].endswith("<div>final</div>")


async def test_a_frame_that_cannot_be_sent_does_not_silence_the_rest_of_the_turn(clock):
    sent = Sent()

    async def flaky(frame: str) -> None:
        if "<table>" in frame:
            raise ConnectionError("the socket went away mid-send")
        await sent(frame)

    stream = TurnStream(flaky, lambda text: f"<t>{text}</t>", interval=INTERVAL, clock=clock)
    stream.text("Here:")
    stream.fragment("<table>T-1001</table>")
    stream.fragment("<div>final</div>", last=True)
    await stream.close()  # returns; does not raise the lost frame's error
    assert sent == ["<div>final</div>"]


async def test_the_customer_may_speak_again_just_before_the_last_fragment_goes(clock):
    events = []

    async def send(frame: str) -> None:
        events.append(("sent", frame))

    stream = TurnStream(
        send,
        lambda text: f"<t>{text}</t>",
        interval=INTERVAL,
        clock=clock,
        before_last=lambda: events.append(("answered", "")),
    )
    stream.fragment("<table>T-1001</table>")
    stream.text("Done.")
    stream.fragment("<div>final</div>", last=True)
    await stream.close()
    assert events == [
        ("sent", "<table>T-1001</table>"),
        ("answered", ""),
        ("sent", "<t>Done.</t><div>final</div>"),
    ]
