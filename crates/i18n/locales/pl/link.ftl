# Uwagi o parametrach linku, których strona nie mogła zastosować (`t=soon`). Nazwy
# parametrów, ich wartości i przykłady zostają tak, jak zapisuje je URL.

link-time = `t={ $value }` to nie czas: podaj milisekundy czasu wirtualnego, np. `t=1500`
link-events = `e={ $value }` to nie liczba zdarzeń: podaj liczbę całkowitą od 0 wzwyż, np. `e=12`
link-anomaly = `anomaly={ $value }` to nie numer anomalii: podaj numer liczony od 1, np. `anomaly=1`
link-why = `why={ $value }` to nie `why=1` (wyjaśnienie otwarte) ani `why=0`: wyjaśnienie zostaje zamknięte
link-tab = `tab={ $value }` to żadne z `tab=lesson`, `tab=tables`, `tab=outcome` i `tab=events`: widać tekst lekcji
link-speed = `speed={ $value }` to nie prędkość, którą oferuje odtwarzacz ({ $speeds }): gra z prędkością 1×
link-anomaly-beyond = `anomaly={ $asked }`: ten przebieg { $count ->
        [0] nie ma anomalii
        [one] ma jedną anomalię
        [few] ma { $count } anomalie
       *[other] ma { $count } anomalii
    }, więc otwiera się od początku
link-time-beyond = `t={ $value }` wypada po końcu tego przebiegu (`t={ $end }`), więc otwiera się na końcu
link-events-beyond = `e={ $asked }`: ten przebieg { $count ->
        [one] ma jedno zdarzenie
        [few] ma { $count } zdarzenia
       *[other] ma { $count } zdarzeń
    }, więc otwiera się na końcu
link-seed = `seed={ $value }` to nie ziarno: podaj liczbę całkowitą od 0 wzwyż, np. `seed=7`
link-schedule = harmonogram `{ $text }`: element { $item } (`{ $token }`) nie jest numerem sesji ani zapisem NUMER~LICZBA
link-timed-schedule = `schedule={ $value }` to harmonogram z czasem: planista działa bez czasu, a jego harmonogramy zaczynają się od `u.`
link-steps = `steps={ $value }` to nie liczba instrukcji: podaj liczbę całkowitą od 0 wzwyż, np. `steps=6`
link-view = `view={ $value }` to nie widok: napisz `view=compact` albo `view=full`
link-theme = `theme={ $value }` to nie motyw: napisz `theme=light` albo `theme=dark`
link-compare-param = `{ $name }` nie jest parametrem porównania: użyj `left`, `right`, `seed` albo `t`
link-toggle-pair = `{ $side }={ $item }` nie jest ustawieniem przełącznika: napisz `nazwa:wartość`, np. `{ $side }=readpast:off`
link-lang = `lang={ $value }` to nie język tej strony: napisz `lang=en`, `lang=pl` albo `lang=ja`
link-repeated = `{ $name }=` występuje w linku { $times } razy: obowiązuje ostatnie, `{ $name }={ $kept }`

# Ustawienie przełącznika, które nie pasuje do lekcji (`lesson::SettingsError`), wewnątrz
# `link-bad-setting`.
link-unknown-toggle = nieznany przełącznik `{ $name }` (przełączniki: { $known })
link-unknown-toggle-none = nieznany przełącznik `{ $name }`: ta lekcja nie ma przełączników
link-not-a-value = `{ $value }` nie jest wartością przełącznika `{ $name }` (wartości: { $values })
link-empty-value = przełącznik `{ $name }` wymaga wartości (wartości: { $values })

# Harmonogram, którego nie dało się wykonać do końca (`ReplayProblem`).
replay-not-enabled = wybór { $choice } harmonogramu wskazuje sesję { $session } ({ $name }), ale wtedy mogą działać tylko: { $enabled }
replay-not-enabled-missing = wybór { $choice } harmonogramu wskazuje sesję { $session }, która nie istnieje; wtedy mogą działać tylko: { $enabled }
replay-cannot-run = { $who } nie może teraz działać
replay-that-session = ta sesja
replay-no-such-session = nie ma sesji { $session } (sesje tej lekcji: { $known })
replay-pick = wybór { $choice }: { $error }
replay-ended = przebieg skończył się po { $run } { $run ->
        [one] instrukcji
       *[other] instrukcjach
    }, a link prosi o { $asked }
replay-out-of-choices = wybory harmonogramu skończyły się po { $run } { $run ->
        [one] instrukcji
       *[other] instrukcjach
    }, a link prosi o { $asked }
replay-unused = link kończy się po { $run } { $run ->
        [one] instrukcji
       *[other] instrukcjach
    }, więc nie użyto { $unused } z { $total } jego wyborów
replay-finished = wszystkie sesje skończyły się po { $run } { $run ->
        [one] instrukcji
       *[other] instrukcjach
    }, więc nie użyto { $unused } z { $total } wyborów linku
