"""A Latin merchant named in Cyrillic («каспи», «в магнуме», «яндекс») is the same name:
compared by its sounds (binding.sound_key), it binds like the Latin spelling — and two
merchants it fits are buttons, never a guess (G7)."""

from __future__ import annotations

import pytest

from tools.binding import sound_key
from tools.mandate import mandate_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("cyrillic", "latin"),
    [
        ("технодом", "Technodom"),
        ("нетфликс", "Netflix"),
        ("глово", "Glovo"),
        ("яндекс", "Yandex"),
        ("вольт", "Wolt"),
        ("каспи", "Kaspi"),
        ("смолл", "Small"),
        ("эйр", "Air"),
        ("бум", "Boom"),
    ],
)
def test_both_spellings_have_one_sound_key(cyrillic, latin):
    assert sound_key(cyrillic) == sound_key(latin)


def test_a_merchant_named_in_cyrillic_binds(cara):
    mandate = mandate_for(customer=cara, text="оспорьте платеж каспи, заказ не пришел")
    assert [(g.target, g.reason) for g in mandate.grants] == [("T-3009", "not_received")]


def test_an_inflected_cyrillic_name_with_an_amount_binds(cara):
    mandate = mandate_for(customer=cara, text="оспорьте покупку в магнуме на 7 300")
    assert [g.target for g in mandate.grants] == ["T-3008"]


def test_two_merchants_a_cyrillic_name_fits_are_buttons(cara):
    mandate = mandate_for(customer=cara, text="оспорьте магнум")
    assert not mandate.grants
    assert set(mandate.unbound[0].candidates) >= {"T-3003", "T-3008"}


def test_a_cyrillic_word_that_names_no_merchant_grants_nothing(cara):
    assert not mandate_for(customer=cara, text="оспорьте платеж в технодоме").grants
