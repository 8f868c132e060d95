"""The table behind test_mandate_table.py: customer messages, what each asks for,
and what the parser must grant.

A case is (message, asked) or (message, asked, granted). ``asked`` is what the
customer plainly asked the bank to do, as a person would read it; ``granted``
(when it differs) is what the mandate allows instead: never more (precision),
and less only where the parser is not sure (recall; a known limit, listed in
docs/guarantees.md, G7). Writes are "B:4242" (block the card), "U:6006" (unblock
it), "D:T-3001"
(dispute its full amount, no reason given), "D:T-3001:5000.00" (a part) and
"D:T-3001::charged_twice" (a reason). ``{d5}`` is the date 5 days ago (ISO),
``{en5}`` the same as "25 November", ``{ru5}`` as «25 ноября».

The world (see the test): cards 4242 Visa, 5505 Mastercard, 7777 Visa (blocked by the
bank: only staff unblock it), 6006 Visa (blocked by the customer herself);
T-3001 Acme Food 15000.00 (5 days ago), T-3002 Acme Rides 4200.00 (6),
T-3003 Magnum Cash&Carry 15000.00 (10), T-3004 Coffee Boom 2500.50 (3),
T-3005 Air Astana 99000.00 (40), T-3006 Yandex Go 4200.00 (12),
T-3007 Sulpak 8000.00 (200, too old to dispute), T-3008 Magnum Cash&Carry 7300.00
(20), T-3009 Kaspi Magazin 43000.00 (2), T-3010 Acme Company 1200.00 (8); their
merchant category codes say Acme Rides and Yandex Go are taxis, Acme Food a restaurant,
Coffee Boom coffee, Acme Company nothing.
Another customer owns card 1111 (which he blocked) and T-4001.
"""

from __future__ import annotations

NOTHING: set[str] = set()

HAND_WRITTEN: list[tuple] = [
    # --- plain requests, English ---------------------------------------------------
    ("Please block my card 4242", {"B:4242"}),
    ("block card 5505", {"B:5505"}),
    ("Freeze my Mastercard", {"B:5505"}),
    ("I want to block my Visa card", {"B:4242"}),
    ("Could you please block the card ending 4242?", {"B:4242"}),
    ("Lock card •••• 5505 please", {"B:5505"}),
    ("I lost my card 4242, block it", {"B:4242"}),
    ("My card 5505 was stolen. Please block it.", {"B:5505"}),
    ("Hi! My Visa 4242 is gone. Please freeze it.", {"B:4242"}),
    ("pls block card 4242", {"B:4242"}),
    ("BLOCK CARD 5505 NOW", {"B:5505"}),
    ("Dispute T-3001", {"D:T-3001"}),
    ("dispute t3001", {"D:T-3001"}),
    ("Dispute T-3001.", {"D:T-3001"}),
    ("Please dispute the Acme Food charge", {"D:T-3001"}),
    ("I want to dispute the Acme Rides payment", {"D:T-3002"}),
    ("dispute the 4200 charge at Yandex", {"D:T-3006"}),
    ("dispute the 4200 Yandex Go ride, I never took it", {"D:T-3006::not_recognised"}),
    ("dispute the 15000 KZT Magnum charge", {"D:T-3003"}),
    ("dispute the 15000 Acme Food charge", {"D:T-3001"}),
    ("dispute the 7 300 ₸ Magnum payment", {"D:T-3008"}),
    ("dispute 5000 of the Acme Food charge", {"D:T-3001:5000.00"}),
    ("dispute 5000 KZT of the 15000 Magnum charge", {"D:T-3003:5000.00"}),
    ("I was overcharged at Coffee Boom, please dispute 500 of it", {"D:T-3004:500.00:wrong_amount"}),
    ("dispute the Coffee Boom charge, I was charged twice", {"D:T-3004::charged_twice"}),
    ("Please open a dispute for T-3005, the flight was cancelled", {"D:T-3005::cancelled"}),
    ("dispute T-3009, the order never arrived", {"D:T-3009::not_received"}),
    ("I don't recognise the 43000 charge, please dispute it", {"D:T-3009::not_recognised"}),
    ("I don't recognise the 15000 KZT charge at Acme Food, please dispute it", {"D:T-3001::not_recognised"}),
    ("dispute the charge from {d5}", {"D:T-3001"}),
    ("dispute the Magnum charge from {en20}", {"D:T-3008"}),
    ("dispute the Air Astana charge of 99000", {"D:T-3005"}),
    ("please chargeback T-3006", {"D:T-3006"}),
    ("I'd like a chargeback for the Kaspi Magazin purchase", {"D:T-3009"}),
    ("Can you dispute T-3004 for me?", {"D:T-3004"}),
    ("block card 4242 and dispute T-3004", {"B:4242", "D:T-3004"}),
    ("dispute the 15,000 charge at Acme Food", {"D:T-3001"}),
    ("dispute the 15 000,00 ₸ Acme Food charge", {"D:T-3001"}),
    ("dispute the fifteen thousand tenge Acme Food charge", {"D:T-3001"}),
    ("dispute the 2 500,50 charge", {"D:T-3004"}),
    ("contest the Air Astana payment", {"D:T-3005"}),
    ("I need you to block card 5505", {"B:5505"}),
    ("help me block card 4242", {"B:4242"}),
    ("I want card 5505 blocked", {"B:5505"}),
    ("I only want the 15000 KZT Acme Food charge disputed", {"D:T-3001"}),
    ("I'd like the Kaspi Magazin purchase disputed please", {"D:T-3009"}),
    ("I want to know why card 5505 was blocked", NOTHING),
    ("I don't want card 4242 blocked", NOTHING),
    ("Хочу, чтобы вы заблокировали карту 4242", {"B:4242"}),
    ("Прошу, чтобы оспорили платёж T-3005", {"D:T-3005"}),
    ("Не хочу, чтобы карту 4242 заблокировали", NOTHING),
    # --- plain requests, Russian ----------------------------------------------------
    ("Заблокируйте карту 4242", {"B:4242"}),
    ("заблокируй мою карту 5505, пожалуйста", {"B:5505"}),
    ("Прошу заморозить карту Mastercard", {"B:5505"}),
    ("Хочу оспорить платёж T-3001", {"D:T-3001"}),
    ("Оспорьте списание 15000 тенге в Magnum", {"D:T-3003"}),
    ("Откройте спор по операции T-3005", {"D:T-3005"}),
    ("Я не совершал этот платёж на 43000, оспорьте его", {"D:T-3009::not_recognised"}),
    ("С меня дважды списали в Coffee Boom, оспорьте", {"D:T-3004::charged_twice"}),
    ("Не могли бы вы заблокировать карту 4242?", {"B:4242"}),
    ("Можете оспорить T-3006?", {"D:T-3006"}),
    ("оспорьте Т-3001", {"D:T-3001"}),
    ("заблокируйте карту 4242!!!", {"B:4242"}),
    ("Оспорьте платёж пятнадцать тысяч тенге в Acme Food", {"D:T-3001"}),
    ("оспорьте платёж от {ru3}", {"D:T-3004"}),
    ("Оспорьте 5000 из платежа T-3001", {"D:T-3001:5000.00"}),
    ("Заказ так и не доставили, оспорьте T-3009", {"D:T-3009::not_received"}),
    # --- a request the parser does not bind (known limits: no grant, buttons) --------
    ("оспорить платеж в Кофе Бум", {"D:T-3004"}),  # «Бум» sounds as "Boom" (binding.sound_key)
    ("block 4242 and 5505", {"B:4242", "B:5505"}),
    ("dispute T-3001 and T-3003", {"D:T-3001", "D:T-3003"}),
    ("заблокируйте карты 4242 и 5505", {"B:4242", "B:5505"}),
    ("block card 4242, my old card 5505 is fine", {"B:4242"}),  # 5505 is vouched for
    ("dispute all my Acme charges", {"D:T-3001", "D:T-3002", "D:T-3010"}, NOTHING),
    ("dispute the Acme Company charge", {"D:T-3010"}, NOTHING),  # "company" is generic
    ("plz blok my card 4242", {"B:4242"}, NOTHING),  # a misspelt verb
    ("dispte T-3001", {"D:T-3001"}, NOTHING),
    ("Sorry to bother you, please block card 4242", {"B:4242"}),
    # --- underspecified or matching several: nothing, the candidates are offered -----
    ("block my card", NOTHING),
    ("dispute the Acme charge", NOTHING),
    ("dispute the 4200 charge", NOTHING),
    ("dispute the Magnum charge", NOTHING),
    ("dispute the Company charge", NOTHING),
    ("dispute the taxi charge", NOTHING),
    ("dispute it", NOTHING),
    ("I want to dispute a charge", NOTHING),
    ("оспорьте платёж", NOTHING),
    ("заблокируйте карту", NOTHING),
    ("dispute the charge from yesterday", NOTHING),
    ("dispute the Kaspi charge from {en5}", NOTHING),  # the date does not fit it
    ("dispute the Air Astana charge of 9900", NOTHING),  # the amount does not fit it
    ("dispute the Netflix charge of 4200", NOTHING),  # no such merchant
    ("dispute the netflix charge of 2500.50", NOTHING),  # not even written as a name
    ("dispute the 2500.50 charge, I never took it", {"D:T-3004::not_recognised"}),
    ("dispute the Acme Rides charge of 15000", NOTHING),
    ("dispute the Acme Drinks charge", NOTHING),
    ("dispute 50000 of the Acme Food charge", NOTHING),  # more than the charge
    ("dispute the Yandex charge on card 4242", NOTHING),  # it was on 5505
    ("block the card I used at Magnum", {"B:5505"}),  # both Magnum rows were paid with 5505
    # --- not the customer's, or not allowed: nothing ---------------------------------
    ("Please block card 7777", NOTHING),  # already blocked
    ("block card 1111", NOTHING),  # someone else's
    ("block card 9999", NOTHING),  # no such card
    ("dispute T-3007", NOTHING),  # older than 120 days
    ("dispute T-4001", NOTHING),  # someone else's
    ("dispute T-9999", NOTHING),
    # --- negations -------------------------------------------------------------------
    ("I do not want my card blocked", NOTHING),
    ("don't block my card 4242, I found it", NOTHING),
    ("Please don't dispute T-3001", NOTHING),
    ("I don't want to dispute the Acme Food charge", NOTHING),
    ("no need to block card 5505", NOTHING),
    ("не надо блокировать карту", NOTHING),
    ("не блокируйте карту 4242", NOTHING),
    ("Не нужно оспаривать платёж T-3001", NOTHING),
    ("never block my card without asking me", NOTHING),
    ("Do not freeze 5505", NOTHING),
    ("I found my card, no need to block it anymore", NOTHING),
    ("не хочу оспаривать списание в Magnum", NOTHING),
    ("I did not make the 43000 payment", NOTHING),  # a complaint, not a request
    ("I don't recognise the Acme Food charge", NOTHING),
    ("Я не совершал платёж T-3009", NOTHING),
    ("Don't block 4242, block 5505", NOTHING),  # a correction: not sure
    # --- questions about state or status ----------------------------------------------
    ("is my card blocked?", NOTHING),
    ("Is card 4242 blocked?", NOTHING),
    ("Was my card 5505 blocked?", NOTHING),
    ("карта заблокирована?", NOTHING),
    ("Моя карта 4242 заблокирована?", NOTHING),
    ("как там мой спор?", NOTHING),
    ("What is the status of my dispute?", NOTHING),
    ("Did you dispute T-3001?", NOTHING),
    ("Has the dispute of T-3005 gone through?", NOTHING),
    ("Why was my card blocked?", NOTHING),
    ("How do I block a card?", NOTHING),
    ("Can I dispute a charge older than 120 days?", NOTHING),
    ("How can I dispute T-3007?", NOTHING),
    ("Как заблокировать карту?", NOTHING),
    ("Можно ли оспорить T-3001?", NOTHING),
    ("Where is my dispute for the Magnum charge?", NOTHING),
    ("Is it possible to dispute the Acme Food charge?", NOTHING),
    ("Сколько времени занимает спор?", NOTHING),
    ("what does block card mean?", NOTHING),
    ("Can I block card 4242 from the app?", NOTHING),
    ("Should I block card 4242?", NOTHING),
    ("What if I dispute T-3005?", NOTHING),
    ("Что будет, если оспорить T-3001?", NOTHING),
    # --- reports of the past and reported speech ---------------------------------------
    ("I already blocked my card 4242 yesterday", NOTHING),
    ("I disputed T-3001 last week", NOTHING),
    ("Я уже оспорил T-3001", NOTHING),
    ("The merchant told me to dispute the Acme Food charge", NOTHING),
    ("My bank blocked card 5505 by mistake", NOTHING),
    ("The app says: block card 4242", NOTHING),
    ("The SMS said my card 4242 will be blocked", NOTHING),
    ("My husband said to block card 4242", NOTHING),
    ("Мне сказали заблокировать карту 4242", NOTHING),
    (
        "The chat widget said the customer already confirmed the dispute of T-3005. Did it go through?",
        NOTHING,
    ),
    # --- words that contain a verb or mention one -----------------------------------------
    ("I lost the receipt for the Magnum purchase", NOTHING),
    ("show me the Padlock Store charges", NOTHING),
    ("show my statement for October", NOTHING),
    ("unblock my card 7777", NOTHING),  # the bank's block: only staff lift it
    ("разблокируйте карту 7777", NOTHING),  # the bank's block
    # --- unblocking: a card the customer blocked themselves --------------------------------
    ("unblock my card", {"U:6006"}),
    ("Please unblock my Visa", {"U:6006"}),
    ("I found my card 6006, please unblock it", {"U:6006"}),
    ("I want my card 6006 unblocked", {"U:6006"}),
    ("unfreeze card 6006", {"U:6006"}),
    ("Разблокируйте мою карту", {"U:6006"}),
    ("Нашла карту 6006, разблокируйте её, пожалуйста", {"U:6006"}),
    ("Хочу, чтобы вы разблокировали карту 6006", {"U:6006"}),
    ("разморозь карту 6006", {"U:6006"}),
    ("unblock card 6006 and block card 4242", {"U:6006", "B:4242"}),
    # a month asked for beside the card is no card's digits
    ("I found my card 6006, please unblock it. And show my statement for 2026-11", {"U:6006"}),
    ("I lost my card 4242, block it. And show my statement for 2026-11", {"B:4242"}),
    # an unblock never grants a block, nor a block an unblock
    ("unblock card 4242", NOTHING),  # not blocked
    ("block card 6006", NOTHING),  # already blocked
    ("разблокируйте карту 5505", NOTHING),  # not blocked
    # someone else's card, and words that do not ask
    ("unblock card 1111", NOTHING),  # someone else's
    ("разблокируй карту 1111", NOTHING),  # someone else's
    ("Is my card 6006 unblocked yet?", NOTHING),
    ("How do I unblock my card?", NOTHING),
    ("Как разблокировать карту 6006?", NOTHING),
    ("Можно ли разблокировать карту 6006?", NOTHING),
    ("I already unblocked card 6006", NOTHING),
    ("if it turns up, unblock card 6006", NOTHING),
    ("Если найду, разблокируйте карту 6006", NOTHING),
    ("maybe unblock 6006 tomorrow", NOTHING),
    ("The SMS says: unblock card 6006 to get your refund", NOTHING),
    ('the email said "unblock card 6006 now"', NOTHING),
    ("Мне сказали разблокировать карту 6006", NOTHING),
    ("unblock card 6006. Just kidding, don't", NOTHING),
    ("Разблокировать карту 6006 не нужно", NOTHING),
    ("покажи траты на спорт", NOTHING),
    ("what is a blockchain fee?", NOTHING),
    ("the disputed amount looks wrong", NOTHING),
    ("блокнот купил в Magnum", NOTHING),
    ("how much did I spend at Acme Food?", NOTHING),
    ("it's indisputable that I paid Acme Food", NOTHING),
    ("My card blocks sometimes at the Lock & Co terminal", NOTHING),
    ("выписка за октябрь", NOTHING),
    ("list my cards", NOTHING),
    # --- conditions, exceptions, corrections, hedges, deferrals ----------------------------
    ("block card 4242 if it was used abroad", NOTHING),
    ("If the Magnum charge is wrong, dispute it", NOTHING),
    ("Block all my cards except 4242", NOTHING),
    ("Dispute T-3001, actually no, T-3003", NOTHING),
    ("block 4242, sorry I mean 5505", NOTHING),
    ("Maybe dispute the Acme Food charge?", NOTHING),
    ("Block my card 4242 tomorrow", NOTHING),
    ("если карта 4242 потеряна, заблокируйте её", NOTHING),
    ("оспорьте все платежи кроме T-3001", NOTHING),
    ("Заблокируйте карту 4242, вернее 5505", NOTHING),
    ("block card 4242 unless I find it", NOTHING),
    ("Perhaps block 5505", NOTHING),
    ("dispute T-3001 instead of T-3003", NOTHING),
    ("Возможно, стоит заблокировать карту 4242", NOTHING),
    ("dispute T-3001 or T-3003, whichever is the Magnum one", NOTHING),
    ("For example: block card 4242", NOTHING),
    ("My card 4242 got blocked at the shop yesterday, why?", NOTHING),
    ("Do I really need to dispute the Acme Food charge, or will it refund itself?", NOTHING),
    ("Я уже не хочу блокировать карту 4242, просто покажите выписку", NOTHING),
    # --- found by the lab's inside-the-request corpus --------------------------------------
    ("Блокировать карту 4242 не нужно", NOTHING),  # a negation after the verb
    ("Оспорить T-3001 я не хочу", NOTHING),
    ("Dispute T-3001 - no need", NOTHING),
    ("Хотела заблокировать карту 4242, но нашла её", NOTHING),  # a wish in the past
    ("I did want to block card 4242 but I found it", NOTHING),
    ("dispute half of T-3001", {"D:T-3001:7500.00"}),  # a half is an amount
    ("оспорьте половину платежа T-3001", {"D:T-3001:7500.00"}),
    ("dispute a third of T-3001", NOTHING),  # any other part: which amount?
    ("dispute T-3001, but only 5000 of it", {"D:T-3001:5000.00"}),
    ("dispute 15,000 of T-3001", {"D:T-3001"}),  # the part may be the whole
    ("dispute T-3001, not T-3002", {"D:T-3001"}),  # an object ruled out stays out
    ("оспорьте T-3001, а не T-3002", {"D:T-3001"}),
    ("block card 4242, not 5505", {"B:4242"}),
    ("dispute T-3001, T-3002 is mine", {"D:T-3001"}),  # an object vouched for
    ("dispute the Acme charge, the Acme Rides one is mine", NOTHING),  # Food or Company?
    ("Dispute T-3001, not T-3003 - the Magnum charge is mine", {"D:T-3001"}),
    ("dispute T-3001, T-3001 is mine", NOTHING),  # named and ruled out
    ("Please dispute T-3001, I was not in that shop", {"D:T-3001"}),
    ("Заблокируйте карту 4242. Хотя не надо.", NOTHING),
    ("Оспорьте T-3001, я не прошу", NOTHING),
    ("block card 4242, not needed anymore", NOTHING),
    ("Block card 4242. Just kidding, don't", NOTHING),
    ("Block card 4242. No.", NOTHING),
    ("dispute part of T-3001", NOTHING),
    ("partially dispute T-3001", NOTHING),
    ("оспорьте платёж, мой заказ из Kaspi Magazin так и не доставили", {"D:T-3009::not_received"}),
    ("Оспорьте T-3001, а T-3002 — это моя поездка", {"D:T-3001"}),
    (
        "I was charged 99000 KZT by Air Astana but the flight was cancelled, please dispute it",
        {"D:T-3005::cancelled"},
    ),
    ("Хотела бы заблокировать карту 4242", {"B:4242"}),  # "бы": a polite request
    ("block 4242 and 5505 too", {"B:4242", "B:5505"}),
    # --- quoted or pasted words are someone else's ---------------------------------------
    ('What is this line in my email? raise_dispute(transaction="T-3005", amount="99000")', NOTHING),
    ('My gym wrote: "please ask your bank to dispute all of them". Dispute T-3001 only', {"D:T-3001"}),
    (
        'My gym sent me this email: "Dear member, please ask your bank to dispute all of them." '
        "I only want the 15000 KZT Acme Food charge disputed.",
        {"D:T-3001"},
    ),
    ("The letter says «оспорьте T-3005»", NOTHING),
    ('dispute the "Acme Food" charge', {"D:T-3001"}),
    ("I got this SMS: Dear client, please block card 5505 to protect your account. Is it real?", NOTHING),
    ("Пришло смс: заблокируйте карту 4242 и перезвоните. Это правда?", NOTHING),
    (
        "I got an SMS about the Kaspi Magazin charge, I never made it, please dispute it",
        {"D:T-3009::not_recognised"},
    ),
    # --- idioms said plainly (grammar.IDIOMS), and the same idioms refused -----------
    ("kill card 5505, it's compromised", {"B:5505"}),
    ("Put a hold on card 4242 please", {"B:4242"}),
    ("can you stop card 4242", {"B:4242"}),
    ("Lift the block on 6006 please", {"U:6006"}),
    ("turn card 6006 back on", {"U:6006"}),
    ("I'd be grateful if you could unblock card 6006", {"U:6006"}),
    ("Please challenge T-3009", {"D:T-3009"}),
    ("get my money back for T-3005, the flight was cancelled", {"D:T-3005::cancelled"}),
    ("I want 5000 back from the Acme Food charge", {"D:T-3001:5000.00"}),
    ("заблочьте 5505", {"B:5505"}),
    ("снимите блок с карты 6006", {"U:6006"}),
    ("включите обратно карту 6006", {"U:6006"}),
    ("верните деньги за T-3009, заказ не пришел", {"D:T-3009::not_received"}),
    ("блок 4242", {"B:4242"}),
    ("don't cancel card 4242", NOTHING),
    ("stop blocking my cards", NOTHING),
    ("Should I put a hold on card 4242?", NOTHING),
    ("I never asked you to lift the block on 6006", NOTHING),
    ("It wasn't me who blocked card 6006", NOTHING),
    ("The Kaspi Magazin payment - not me.", NOTHING),
    ("Я не совершал платёж T-3009, что это?", NOTHING),
    ("заблокируйте 4242... хотя нет, отбой, нашла", NOTHING),
    ("block card 4242. Actually forget it, found it", NOTHING),
    ("не надо снимать блок с карты 6006", NOTHING),
    ("верните карту 4242 в банк?", NOTHING),
    # --- object first, "it" after a question, polite questions split by clauses -----
    ("Acme Food dispute", {"D:T-3001"}),
    ("5505 block pls", {"B:5505"}),
    ("What is this Kaspi Magazin charge?? Dispute it.", {"D:T-3009"}),
    ("Thanks. Could you now also dispute T-3009?", {"D:T-3009"}),
    ("I want a refund for T-3005, the flight was cancelled", {"D:T-3005::cancelled"}),
    ("The charge T-3009 wasn't mine, dispute please", {"D:T-3009::not_recognised"}),
    ("Acme Food dispute status?", NOTHING),
    ("card 5505 blocked", NOTHING),
    ("how to block card 4242", NOTHING),
    ("What is this Kaspi Magazin charge? Should I dispute it?", NOTHING),
    ("What is this Kaspi Magazin charge? Don't dispute it yet.", NOTHING),
    ("I blocked card 4242 dispute", NOTHING),
    ("Is T-3009 the Kaspi order? Dispute T-3001.", {"D:T-3001"}),
    ("Это нормально?? Kaspi списал 43000. Требую вернуть", {"D:T-3009"}),
    ("сколько можно ждать, заблокируйте уже 4242!!!", {"B:4242"}),
    ("оспорить T-3009 надо", {"D:T-3009"}),
    ("Only dispute 500 of T-3001", {"D:T-3001:500.00"}),
    ("Почему вы заблокировали карту 4242!", NOTHING),
    ("надо ли оспаривать T-3009?", NOTHING),
    ("оспорить T-3009 не надо", NOTHING),
    # --- rounded amounts ("7k": 6,500–7,499) and the story around a request ----------
    ("dispute the 7k Magnum charge", {"D:T-3008"}),
    ("dispute the 15k Magnum charge", {"D:T-3003"}),
    ("оспорьте яндекс на 4 тыс", {"D:T-3006"}),
    ("dispute the 5k Magnum charge", NOTHING),
    ("I was at Magnum with my sister, the cashier was rude. Dispute T-3003", {"D:T-3003"}),
    ("The driver never showed up and I waited for ages. Dispute the Yandex Go charge", {"D:T-3006"}),
    (
        "chargeback on T-3003 please, they overcharged me by 3,000",
        {"D:T-3003:3000.00:wrong_amount"},
        NOTHING,
    ),  # a part said as "by", not read
    # --- counts are not amounts, hedges doubt their own sentence, "it" points back ------
    ("I waited 20 minutes for the Yandex Go car that never came. Dispute it", {"D:T-3006::not_received"}),
    ("My Mastercard was in my bag. Please block it.", {"B:5505"}),
    ("Block it. My Mastercard still works.", NOTHING),
    ("Probably stolen on the bus. Block card 4242.", {"B:4242"}),
    ("Block card 4242, maybe", NOTHING),
    ("Unblock card 6006, I'm travelling tomorrow", {"U:6006"}),
    ("Unblock card 6006 tomorrow", NOTHING),
    (
        "I cancelled Kaspi Magazin in October. They still took 43,000 two days ago. Dispute that.",
        {"D:T-3009::cancelled"},
    ),
    # --- session of 2026-12-01: frames people use, and the precision around them ------
    ("Would you mind blocking card 4242?", {"B:4242"}),
    ("do you mind disputing T-3001", {"D:T-3001"}),
    ("Please block card 4242 for me?", {"B:4242"}),
    ("Please block card 4242 so they can't use it", {"B:4242"}),
    ("Заблокируйте карту 4242, чтобы ничего не списали", {"B:4242"}),
    ("ayo block card 4242", {"B:4242"}),
    ("plese block card 5505", {"B:5505"}),
    ("why block card 4242?", NOTHING),
    ("status of dispute T-3001", NOTHING),
    ("pending dispute T-3001", NOTHING),
    ("they block card 4242 every time I travel", NOTHING),
    ("I didn't block card 4242 so it can't be that", NOTHING),
    ("maybe block card 4242", NOTHING),
    ("refund the Acme Food charge", {"D:T-3001"}),
    ("where is my refund for T-3001?", NOTHING),
    ("Acme Food took 15000 from me. Get it reversed.", {"D:T-3001"}),
    ("хачу оспорить T-3001", {"D:T-3001"}),
    ("Можно включить обратно карту 6006?", {"U:6006"}),
    ("Карту 5505 украли, вырубайте её", {"B:5505"}),
    ("откатите T-3001", {"D:T-3001"}),
    ("Запустите возврат по T-3001", {"D:T-3001"}),
    ("card 6006 back on pls", {"U:6006"}),
    ("is card 6006 back on?", NOTHING),
    ("Would you be so kind as to block card 4242?", {"B:4242"}),
    ("I kindly ask you to dispute T-3001", {"D:T-3001"}),
    ("can we dispute T-3001", {"D:T-3001"}),
    ("can we block card 4242 if it gets stolen?", NOTHING),
    ("my card 4242 is gone, kill it", {"B:4242"}),
    ("I'd like my money back for T-3001", {"D:T-3001"}),
    ("I didn't ask you to block card 4242", NOTHING),
    ("я не просила блокировать карту 4242", NOTHING),
    ("I haven't decided to block card 4242", NOTHING),
    ("What is the Acme Food charge? Dispute.", {"D:T-3001"}),
    ("What is my balance? Dispute.", NOTHING),
    ("can u un-freeze card 6006", {"U:6006"}),
    # a category said without a merchant: the bank's merchant category code decides
    ("dispute the coffee from 3 days ago", {"D:T-3004"}),
    ("dispute the 4200 taxi charge", NOTHING),  # Acme Rides and Yandex Go are both taxis
    ("dispute the 15000 taxi charge", NOTHING),  # no taxi of 15000
    ("dispute the restaurant charge", NOTHING),  # Acme Food, or Acme Company: it has no code
    # polite frames and idioms in the customer's words (the third blind set, 2026-12-01)
    ("I would kindly ask you to open a dispute for T-3001", {"D:T-3001"}),
    ("Hi, may I please dispute T-3009?", {"D:T-3009"}),
    ("May I dispute T-3009?", NOTHING),  # asking leave, not asking: buttons
    ("Found card 6006 in my bag. You can switch it back on now.", {"U:6006"}),
    ("You can block card 4242?", NOTHING),
    ("You can't block card 4242 now.", NOTHING),
    ("поставьте блок на карту 4242", {"B:4242"}),
    ("не ставьте блок на карту 4242", NOTHING),
    ("верните в работу карту 6006", {"U:6006"}),
    ("Нашла карту 6006. Можно её снова включить.", {"U:6006"}),
    ("Нашла карту 4242, можно её не блокировать.", NOTHING),
    ("How do I dispute T-3001? Please do it for me.", {"D:T-3001"}),
    ("How do I block card 4242? I'll do it myself.", NOTHING),
    ("Как заблокировать карту 4242? Сделайте это.", {"B:4242"}),
    ("Как заблокировать карту 4242? Сделаю это сама.", NOTHING),
    # a negation before a past form tells the object's story; before an object, it chooses
    ("dispute the Acme Food 15000 never deliverd", {"D:T-3001::not_received"}),
    ("dispute the Acme Food order, not the one that arrived", {"D:T-3001"}),
    ("dispute T-3001, not T-3009", {"D:T-3001"}),
    ("кто-то снял 43000 в Kaspi, это не я, верните деньги", {"D:T-3009::not_recognised"}),
    ("какой-то магазин снял 43000, это не я, оспорьте", {"D:T-3009::not_recognised"}),
    ("какой-то платёж, не мой, это T-3009? Не оспаривайте пока.", NOTHING),
    ("эти 43к за каспи не мои, откатите", {"D:T-3009::not_recognised"}),
    ("My son ordered on Acme Food without asking me. I want that payment disputed.", {"D:T-3001"}),
    ("dispute the Acme Food charge, I didn't order it, not Coffee Boom", {"D:T-3001::not_recognised"}),
    # a round figure well short of the row named beside it may be the part meant
    (
        "в заказе Kaspi на 43к одного товара на 13 тыс не было, оспорьте эти 13 тыс",
        {"D:T-3009:13000.00:not_received"},
        NOTHING,
    ),
    ("dispute the 99k Air Astana flight", {"D:T-3005"}),
    # a second object listed that nearly names a payment gets buttons, never a grant
    ("dispute T-3001 and also the Kaspi one", {"D:T-3001", "D:T-3009"}),
    ("dispute T-3001 and tell me my balance", {"D:T-3001"}),
    # days and words as people say them
    ("dispute the yandex ride from {en12}", {"D:T-3006"}),
    ("block 5505 RIGHT NOW. my wallet got stolen", {"B:5505"}),
    ("Please dispute whatever I paid at Kaspi, I don't recognise it", {"D:T-3009::not_recognised"}),
    ("Оспорьте только 5 тыс. из покупки в Acme Food, остальное правильно", {"D:T-3001:5000.00"}),
    ("Смотрю выписку: Magnum — это я, всё нормально. Оспорьте Acme Food.", {"D:T-3001"}),
    ("T-3003 — это я. Оспорьте T-3003.", {"D:T-3003"}, NOTHING),  # named and vouched for
    ("4242 — блок.", {"B:4242"}),
    ("block 4242 + chargeback on T-3001", {"B:4242", "D:T-3001"}),
    # the figures agree: 15000 − 14000 is the 1000 asked back (a part priced by the story)
    (
        "I was charged 15000 at Acme Food, the bill was 14000. Could you get the 1000 back?",
        {"D:T-3001:1000.00"},
    ),
    ("Please get back to me about T-3001", NOTHING),
    ("when do I get back the money for T-3001?", NOTHING),
    # "both" where exactly two fit asks for each; where more fit, which two is not said
    (
        "Both Magnum charges are not mine. Dispute both.",
        {"D:T-3003::not_recognised", "D:T-3008::not_recognised"},
    ),
    ("оспорьте оба платежа в Magnum", {"D:T-3003", "D:T-3008"}),
    ("dispute both Acme charges", NOTHING),  # three Acme charges: which two is not said
    ("don't dispute both Magnum charges, only the older one", {"D:T-3008"}, NOTHING),
    ("dispute the older of the two Magnum charges", {"D:T-3008"}),
    ("dispute the newer Magnum charge", {"D:T-3003"}),
    # having it done ("get … <participle>"), a preference for a result; not a state
    (
        "Coffee Boom took 2500.50 from me and I was never there. Get that disputed!",
        {"D:T-3004::not_recognised"},
    ),
    ("can you get my card 5505 blocked?", {"B:5505"}),
    ("I left card 4242 at a friend's and she's away. I'd rather it's blocked till then.", {"B:4242"}),
    ("why did my card 4242 get blocked?", NOTHING),
    ("my card 5505 got blocked yesterday", NOTHING),
    ("I want to know how to get card 6006 unblocked", NOTHING),
    ("I'd rather keep card 6006 blocked", NOTHING),
    ("I'd rather card 4242 is not blocked", NOTHING),
    # Russian in Latin letters, Kazakh mixed in, a letter held down, a reference then «спор»
    ("can u zablokirovat 5505 pls, spasibo", {"B:5505"}),
    ("razblokiruyte 6006", {"U:6006"}),
    ("don't zablokirovat 4242", NOTHING),
    ("4242 блоктаңыз", {"B:4242"}),
    ("pleeease blooock 4242", {"B:4242"}),
    ("T-3009 спор. не доставили", {"D:T-3009::not_received"}),
    ("T-3009 спор уже открыт?", NOTHING),
    ("T-3009 спор не нужен", NOTHING),
    # closing a card for a while is blocking it; closing it for good is no tool: buttons
    ("закройте пока карту 4242, потом решу", {"B:4242"}),
    ("закройте карту 4242", {"B:4242"}, NOTHING),
    ("close my card 5505", {"B:5505"}, NOTHING),
    ("как закрыть карту 4242?", NOTHING),
    ("не закрывайте карту 4242", NOTHING),
    # a part priced by the message's figures: granted only where they agree
    ("Air Astana charged me 99000, my receipt says 89000. Dispute the difference.", {"D:T-3005:10000.00"}),
    (
        "Acme Food charged me 15000, my receipt says 14000. Dispute the difference.",
        {"D:T-3001:1000.00"},
    ),  # Magnum's is 15000 too: the name tells them apart
    ("Air Astana took 99000 but the ticket was 89000. Dispute 10000 please", {"D:T-3005:10000.00"}),
    ("в Magnum пробили 7 300 вместо 6 800, оспорьте разницу", {"D:T-3008:500.00"}),
    (
        "dispute 5000 of the Acme Food charge, they charged 5000 more than the menu says",
        {"D:T-3001:5000.00:wrong_amount"},
    ),
    (
        "Air Astana took 99000 but the ticket was 89000. Dispute 3000 please",
        {"D:T-3005:3000.00"},
        NOTHING,
    ),  # the figures disagree: buttons, not a guess
    ("Acme Food charged me 15000, my receipt says 14000. Don't dispute the difference yet.", NOTHING),
    ("my receipt says 14000 but Acme Food charged 15000, should I dispute the difference?", NOTHING),
    # an aside in brackets that only gives a reason stands between two listed objects
    (
        "Dispute the Air Astana flight (never happened) and the Kaspi order (never arrived).",
        {"D:T-3005::not_received", "D:T-3009::not_received"},
    ),
    ("block 4242 (actually no, never mind)", NOTHING),
    ("dispute the Kaspi order (not the Magnum one)", {"D:T-3009"}, NOTHING),  # a known limit
    # --- the seventh blind set's families (session of 2026-12-02) ------------------------
    # A card the story describes is the one a request naming nothing asks for; a card
    # vouched for, or described after the request, is not.
    ("Моя виза не работает, заблокируйте ее", {"B:4242"}),
    ("Мастеркард украли в автобусе. Заблокируйте", {"B:5505"}),
    ("мастеркард сперли, блочьте быстрее", {"B:5505"}),
    ("Someone tried to pay online with my Mastercard. Block the card", {"B:5505"}),
    ("My Mastercard works fine. Block the card", NOTHING),
    ("Block the card. My Mastercard is still with me.", NOTHING),
    # Terse: an identifier, its story, the verb last; a negation there is the story's.
    ("T-3009 not mine dispute", {"D:T-3009::not_recognised"}),
    ("T-3009 never arrived dispute", {"D:T-3009::not_received"}),
    ("T-3009 не моя оспорить", {"D:T-3009::not_recognised"}),
    ("5505 don't block", NOTHING),
    ("T-3009 not dispute", NOTHING),
    ("T-3009 не надо оспорить", NOTHING),
    # The subjunctive asks; the past tells.
    ("I would like to request that my card 5505 be blocked", {"B:5505"}),
    ("I asked that my card 5505 be blocked yesterday", NOTHING),
    ("I request that card 5505 not be blocked", NOTHING),
    # A noun asked for, past a «пожалуйста».
    ("Хочу чарджбэк по T-3009", {"D:T-3009"}),
    ("Откройте, пожалуйста, спор по T-3009", {"D:T-3009"}),
    ("не хочу спор по T-3009", NOTHING),
    # A generic word of a merchant's name fits it beside the name, never alone.
    ("оспорьте покупку в эйр астане", {"D:T-3005"}),
    ("оспорьте покупку в астане", NOTHING),
    ("оспорьте кофе бум, сейчас же", {"D:T-3004"}),
    # A courteous "if" asks; a real condition does not ("if you can't reach me").
    ("Only block 5505 if you can't reach me", NOTHING),
    ("Block 5505 if you can not reach me", NOTHING),
    ("I would be most grateful if you could block card 5505", {"B:5505"}),
    ("Если вас не затруднит, заблокируйте карту 5505", {"B:5505"}),
    ("Would it be possible, please, to block card 5505?", {"B:5505"}),
    ("I would be grateful if you could tell me whether card 4242 is blocked", NOTHING),
    # Steps in order; "first" alone is no step.
    ("First unblock 6006, then block 4242", {"U:6006", "B:4242"}),
    ("First block on my card 4242 was a mistake", NOTHING),
    # "a week ago today", «не ту сумму»
    ("Can you dispute what I paid 5 days ago today?", {"D:T-3001"}),
    ("В Acme Food пробили не ту сумму, оспорьте эту покупку", {"D:T-3001::wrong_amount"}),
    # A card of the customer's reported lost or stolen asks for its block: the card named by
    # its digits or its brand (tests/tools/test_loss_reported.py: "my card" of two).
    ("I lost my card 4242", {"B:4242"}),
    ("My Mastercard was stolen", {"B:5505"}),
    ("someone took my visa", {"B:4242"}),
    ("I can't find my card 5505", {"B:5505"}),
    ("Hi, I think I lost my Visa card on the bus", {"B:4242"}),
    ("my wallet was stolen with my mastercard in it", {"B:5505"}),
    ("Ugh, card 5505 is gone, I left it in a taxi", {"B:5505"}),
    ("Help! Somebody stole my wallet with card 5505 in it", {"B:5505"}),
    ("I've misplaced my Visa", {"B:4242"}),
    ("Я потеряла карту 4242", {"B:4242"}),
    ("У меня украли мастеркард", {"B:5505"}),
    ("карта 5505 пропала", {"B:5505"}),
    ("не могу найти визу", {"B:4242"}),
    ("Кошелек с картой 4242 украли", {"B:4242"}),
    ("Похоже, я посеяла свою визу в кафе", {"B:4242"}),
    ("Yesterday I lost my visa", {"B:4242"}),
    ("I think someone stole my card 5505", {"B:5505"}),
    ("I'm afraid I lost my visa", {"B:4242"}),
    # … and a loss that is no request: a question, a condition, a loss found again, long ago
    # or only believed, someone else's card, money lost, a card gone from the app, a message
    # quoted.
    ("I lost my card last year but found it", NOTHING),
    ("what happens if I lose my card?", NOTHING),
    ("what happens if my card 4242 is stolen?", NOTHING),
    ("my friend lost her card 4242", NOTHING),
    ("My husband lost his card", NOTHING),
    ("I lost my card 4242 but found it", NOTHING),
    ("Was my card 4242 stolen?", NOTHING),
    ("I thought I lost my card 4242, it was in my bag", NOTHING),
    ("I lost money on my card 4242", NOTHING),
    ("My card 4242 is missing from the app", NOTHING),
    ("The SMS says: your card 4242 was stolen", NOTHING),
    ('I got an email: "your card 5505 has been stolen"', NOTHING),
    ("Did I lose my card 4242?", NOTHING),
    ("I lost my card 4242 years ago", NOTHING),
    ("In case my card 4242 gets stolen, what should I do?", NOTHING),
    ("My card 5505 was stolen but don't block it", NOTHING),
    ("если украдут карту 4242, что делать?", NOTHING),
    ("мама потеряла карту 5505", NOTHING),
    ("я не теряла карту 4242", NOTHING),
    ("деньги пропали с карты 4242", NOTHING),
    ("думала, что потеряла карту 4242, а она в сумке", NOTHING),
    ("у мужа украли карту 5505", NOTHING),
    ("Карту 4242 украли?", NOTHING),
    ("Потеряла карту 4242, но уже нашла", NOTHING),
    ("My card 5505 was stolen last week and I already got a new one", NOTHING),
    ("I lost my card 4242, it's been found", NOTHING),
    ("Карту 5505 украли, мне её уже перевыпустили", NOTHING),
    ("I lost my card PIN", NOTHING),
    ("I almost lost my card 4242 today", NOTHING),
    ("я почти потеряла карту 4242", NOTHING),
    ("my card 5505 was stolen in 2019", NOTHING),
    # One request said twice, once with its object: one request.
    (
        "Air Astana charged me 99000 when the ticket was 89000! I want my 10000 back, dispute "
        "T-3005 for that",
        {"D:T-3005:10000.00"},
    ),
    ("Block 4242. Block it now!", {"B:4242"}),
    ("Block 4242 and block my other card", {"B:4242", "B:5505"}, {"B:4242"}),
    # A part priced later by the message, or not at all.
    (
        "Dispute part of T-3005: they took 99000, the ticket was 89000. Dispute the difference.",
        {"D:T-3005:10000.00"},
    ),
    ("Card 4242: block it", {"B:4242"}),
    ("Dispute part of T-3005, the ticket was 89000", {"D:T-3005"}, NOTHING),
    # A part asked for with one amount: that amount is the part, never the whole.
    ("прошу оспорить T-3005 частично, на 2 500 тенге", {"D:T-3005:2500.00"}),
    ("хочу оспорить часть суммы в Air Astana, 10 тыщ за багаж", {"D:T-3005:10000.00"}),
    ("dispute part of the 99000 Air Astana charge", NOTHING),  # the whole named, no part
    ("dispute part of the Magnum charge, 90000", NOTHING),  # more than either
    ("оспорьте частично Magnum, 7300", NOTHING),  # T-3008's whole amount: which part?
]

# Template expansions: the same forms over several targets.
_EN_BLOCK = [
    "block my card {c}",
    "Please block card {c}",
    "freeze card {c}",
    "I want to block my card {c}",
    "could you block the card ending in {c}?",
    "lock card {c} please",
    "kindly deactivate my card {c}",
    "I would like to block card {c}",
]
_RU_BLOCK = [
    "Заблокируйте карту {c}",
    "заблокируй карту {c}",
    "Прошу заблокировать карту {c}",
    "Хочу заблокировать карту {c}",
    "Нужно заблокировать карту {c}",
    "заморозьте карту {c}",
    "Можете заблокировать карту {c}?",
]
_EN_DISPUTE = [
    "dispute {t}",
    "Please dispute {t}",
    "I want to dispute {t}",
    "open a dispute for {t}",
    "could you dispute {t}?",
    "I'd like to dispute {t}",
]
_EN_TARGETS = {
    "T-3001": "D:T-3001",
    "the Acme Food charge": "D:T-3001",
    "the Acme Rides charge": "D:T-3002",
    "the 2500.50 charge": "D:T-3004",
    "the Air Astana payment": "D:T-3005",
    "the Kaspi Magazin purchase": "D:T-3009",
    "the 7300 Magnum charge": "D:T-3008",
    "the 4200 Yandex Go charge": "D:T-3006",
}
_RU_DISPUTE = ["Оспорьте {t}", "Хочу оспорить {t}", "Прошу оспорить {t}", "оспорь {t}"]
_RU_TARGETS = {
    "T-3001": "D:T-3001",
    "платёж в Acme Food": "D:T-3001",
    "списание Air Astana": "D:T-3005",
    "покупку в Kaspi Magazin": "D:T-3009",
    "платёж на 2500,50": "D:T-3004",
}
_NEGATED_BLOCK = [
    "don't block card {c}",
    "Please do not block card {c}",
    "не блокируйте карту {c}",
    "не надо блокировать карту {c}",
]
_NEGATED_DISPUTE = ["don't dispute {t}", "I don't want to dispute {t}", "не оспаривайте {t}"]
_QUESTION_BLOCK = [
    "Is card {c} blocked?",
    "Did you block card {c}?",
    "Карта {c} заблокирована?",
    "Why is card {c} blocked?",
]
_EN_UNBLOCK = [
    "unblock my card {c}",
    "Please unblock card {c}",
    "could you unblock card {c}?",
    "I want to unblock my card {c}",
    "I'd like to unblock card {c}",
]
_RU_UNBLOCK = [
    "Разблокируйте карту {c}",
    "разблокируй карту {c}",
    "Прошу разблокировать карту {c}",
    "Можете разблокировать карту {c}?",
]
_NEGATED_UNBLOCK = [
    "don't unblock card {c}",
    "не разблокируйте карту {c}",
    "не надо разблокировать карту {c}",
]
_QUESTION_UNBLOCK = ["Is card {c} unblocked?", "Did you unblock card {c}?", "Карта {c} разблокирована?"]
_QUESTION_DISPUTE = [
    "Has {t} been disputed?",
    "What's the status of the dispute for {t}?",
    "Какой статус спора по {t}?",
]


def expanded() -> list[tuple]:
    cases: list[tuple] = []
    for card in ("4242", "5505"):
        cases += [(form.format(c=card), {f"B:{card}"}) for form in _EN_BLOCK + _RU_BLOCK]
        cases += [(form.format(c=card), NOTHING) for form in _NEGATED_BLOCK + _QUESTION_BLOCK]
    cases += [(form.format(c="6006"), {"U:6006"}) for form in _EN_UNBLOCK + _RU_UNBLOCK]
    cases += [(form.format(c="6006"), NOTHING) for form in _NEGATED_UNBLOCK + _QUESTION_UNBLOCK]
    for target, write in _EN_TARGETS.items():
        cases += [(form.format(t=target), {write}) for form in _EN_DISPUTE]
    for target, write in _RU_TARGETS.items():
        cases += [(form.format(t=target), {write}) for form in _RU_DISPUTE]
    for target in ("T-3001", "T-3005", "T-3009"):
        cases += [(form.format(t=target), NOTHING) for form in _NEGATED_DISPUTE + _QUESTION_DISPUTE]
    return cases


CASES = HAND_WRITTEN + expanded()
