# Panele sceny: oś czasu, sesje, oczekiwania i blokady, tabele, zdarzenia, „dlaczego”, przewidywanie.

timeline = Oś czasu
timeline-whole = cały przebieg, { $span }
lanes-more = { $count } { $count ->
    [few] sesje
   *[many] sesji
} ↓
lanes-more-title = Oś czasu pokazuje część sesji: przewiń ją, by zobaczyć pozostałe
timeline-whole-shared = cały przebieg, { $span }, w skali dłuższego przebiegu ({ $axis })
zoom-group = Powiększenie osi czasu
zoom-in = Powiększ
zoom-in-title = Powiększ (albo kółko w górę)
zoom-out = Pomniejsz
zoom-out-title = Pomniejsz (albo kółko w dół)
zoom-reset = Cały przebieg
lane-title = { $name }: kliknij, by przesunąć znacznik odtwarzania
lane-starts = start w chwili { $time }
lane-statement = { $label } w wierszu { $line }
lane-queue = kolejkę
lane-waits = czeka na { $whom }
lane-sleeps = śpi
lane-delayed = opóźniona: { $table } pusta
overview-all = cały
overview-title = Cały przebieg
overview-label = Widoczny odcinek przebiegu: przeciągnij, by go wybrać, strzałki go przesuwają, + i − powiększają
overview-value = od { $from } do { $to }
legend = Legenda
legend-running = działa
legend-waiting = czeka na blokadę (z nazwą posiadacza)
legend-sleeping = śpi (opóźnienie)
legend-delayed = opóźniona (konsumpcja z pustej kolejki)
legend-mixed = wiele krótkich kroków: powiększ, by zobaczyć każdą instrukcję
legend-marks = ✕ błąd · ⤼ pominięty zablokowany wiersz · ◆ wynik · ✓ zatwierdzenie · ↺ wycofanie · ☠ zakleszczenie
legend-anomaly = anomalia: to, o czym jest lekcja ([ i ] skaczą między nimi, ? mówi dlaczego)
legend-zoom = Powiększanie: kółko albo gest szczypania nad torami, + i −, albo przeciągnięcie po pasku całego przebiegu.
keys = Klawisze
keys-space = spacja
keys-play = odtwarzaj albo wstrzymaj
keys-step = jedno zdarzenie wstecz albo naprzód
keys-ends = początek, koniec
keys-anomaly = poprzednia albo następna anomalia
keys-why = otwórz albo zamknij „dlaczego”
keys-escape = zamknij „dlaczego”; na przełączniku oddaj klawisze odtwarzaczowi
keys-page = przewiń scenę

anomaly-at = { $anomaly } w chwili { $time }
anomaly-none = W tym przebiegu nie ma anomalii.
anomaly-of = Anomalia { $shown } z { $total }
anomaly-of-several = Anomalie { $first }–{ $last } z { $total }
anomaly-ahead = Anomalie przed nami: { $total }
anomaly-passed = Minięte: { $shown } z { $total }
anomaly-about = anomalie: to, o czym jest ta lekcja
anomaly-group = Anomalie
anomaly-prev = Poprzednia anomalia
anomaly-prev-title = Poprzednia anomalia ([)
anomaly-prev-button = ◂ Anomalia
anomaly-next = Następna anomalia
anomaly-next-title = Następna anomalia (])
anomaly-next-button = Anomalia ▸

why-button = Dlaczego?
why-hide = Ukryj wyjaśnienie
why-button-title = Dlaczego tak się stało? (? otwiera i zamyka, Esc zamyka)
why-nothing-title = Nie ma tu czego wyjaśniać
why-nothing = Zdarzenie w miejscu znacznika wynika z samego SQL. Przejdź do czekania, pominięcia, błędu albo anomalii (] skacze do następnej anomalii), a tu pojawi się przyczyna.
why-nothing-no-anomalies = Zdarzenie w miejscu znacznika wynika z samego SQL. Przejdź do czekania, pominięcia albo błędu, a tu pojawi się przyczyna.
why-matrix-caption = Zgodność blokad ({ $dialect }): czy blokadę, o którą prosi sesja (wiersz), można przyznać, gdy inna sesja trzyma blokadę (kolumna)?
why-matrix-lit = Podświetlone: żądana { $asked }, trzymana { $held }.
why-matrix-corner = żądana \ trzymana

code-sessions = Sesje
code-sessions-now = Sesje teraz
code-running = działa
code-finished = zakończona
code-idle = teraz bez instrukcji
code-not-started = nie wystartowała (start w chwili { $time })
code-waiting = czeka na { $whom }: chce { $mode } na { $resource }
code-earlier-waiters = wcześniej czekające
code-sleeping = śpi do { $time }
code-delayed = opóźniona: jej konsumpcja czeka na wiersz w tabeli kolejkowej { $table }
code-in-setup = w bloku przygotowawczym, wiersz { $line }:
code-in-setup-proc = w procedurze { $proc } (blok przygotowawczy), wiersz { $line }:
code-trancount = w transakcji ({ $count })
code-trancount-title = otwarte transakcje (@@TRANCOUNT)
code-toggled = zmienione przełącznikiem „{ $toggle }”
code-toggled-empty = przełącznik „{ $toggle }” nie wstawia tu teraz tekstu
narrative-session = sesja { $name }, start w chwili { $time }

waits-title = Kto czeka na kogo
waits-edge = { $mode } na { $resource }
waits-nobody = Nikt nie czeka
waits-nobody-now = Teraz nikt nie czeka.
waits-deadlock = Zakleszczenie: { $cycle } — ofiarą jest { $victim } (błąd 1205).
locks-title = Trzymane blokady
locks-none = Brak blokad (poza blokadami intencji).
locks-none-plain = Brak blokad.
locks-more = … i { $count } więcej
locks-waiting = czekają:
locks-wants = { $session } chce { $mode }
state-through = Stan po zdarzeniu { $last }, na którym kończy się ten krok: zdarzenia { $first }–{ $last } zachodzą razem w chwili { $time }.

filter-label = Filtruj tabele
filter-text = Szukaj wierszy po identyfikatorze albo wartości
filter-session = Wiersze sesji
filter-any-session = dowolna sesja
filter-locked = zablokowane teraz
filter-anomalies = z anomaliami ({ $count })
filter-clear = Pokaż wszystko
table-match = Pasuje { $matched } z { $total ->
    [one] { $total } wiersza
   *[other] { $total } wierszy
}
table-first-shown = pokazane pierwsze { $shown }
table-shown = pokazane { $shown }: zablokowane, świeżo zmienione i pierwsze
table-no-match = brak pasujących wierszy
table-no-rows = brak wierszy
table-gap = … { $count ->
    [one] jeszcze { $count } wiersz
    [few] jeszcze { $count } wiersze
   *[many] jeszcze { $count } wierszy
} …
table-locks-column = Blokady
table-locks-short = blokady
table-changed-now = (właśnie zmieniony)
table-skipped = ⤼ pominięty
table-recent = Ostatnie zmiany wierszy, których tu nie widać:
log-seek = Przesuń znacznik odtwarzania do tego zdarzenia

predict-title = Najpierw przewiduj
predict-skip = Pomiń: pokaż przebieg
predict-summary-hidden = Najpierw przewiduj: podsumowanie pojawi się po odpowiedzi.
predict-narrative-hidden = Tekst lekcji wyjaśnia, co pokazuje przebieg, więc otworzy się, gdy odpowiesz na pytanie albo je pominiesz.
predict-panel-hidden = Ta karta pokazuje przebieg, więc otworzy się, gdy odpowiesz na pytanie albo je pominiesz.
predict-stop = Nie pytaj mnie więcej
predict-hint = Odpowiedzi zostają w tej przeglądarce; karta Lekcja włącza pytania z powrotem.
predict-running = Uruchamianie…
predict-right = Dobrze.
predict-wrong = Nie do końca.
predict-you-said = Twoja odpowiedź: { $answer }.
predict-run-says = Przebieg mówi: { $answer }.
predict-none = żadna z odpowiedzi
predict-cannot-judge = Ten przebieg nie może ocenić odpowiedzi: { $error }.
predict-moment = Zobacz ten moment
predict-yours = Twoje przewidywanie
predict-again = Zapytaj mnie znowu

# Dwa przebiegi obok siebie.
compare-page-title = Porównanie: { $title }
compare-back = Wróć do lekcji
compare-same = Obie strony mają te same ustawienia: wybierz inną wartość po jednej stronie, by porównać.
compare-same-choose = Porównaj z prawą stroną ustawioną na:
compare-simulating = Symulacja obu przebiegów…
compare-never = Przebiegi się nie rozchodzą: każde zdarzenie dzieje się tak samo i w tym samym czasie.
compare-part = Przebiegi rozchodzą się w chwili { $time } (zdarzenie { $event }).
compare-same-before = Każde wcześniejsze zdarzenie jest w obu takie samo.
compare-both = Obie strony:
compare-left = Lewy:
compare-right = Prawy:
compare-ended = przebieg się skończył
compare-why = Dlaczego: jedyna różnica — { $differs }; to pierwsze zdarzenie, które ona zmienia, a wszystko dalej z niego wynika.
compare-go = Przejdź do tej chwili
compare-left-run = lewy przebieg
compare-right-run = prawy przebieg
compare-marker = Przebiegi rozchodzą się w chwili { $time }
compare-of = z { $end }
compare-scrub = Czas wirtualny, oba przebiegi
compare-back-label = Wstecz do poprzedniej chwili któregoś z przebiegów (←)
compare-forward-label = Dalej do następnej chwili któregoś z przebiegów (→)
compare-outcomes = Wyniki
compare-left-title = Lewy
compare-right-title = Prawy, względem lewego
compare-no-difference = Żaden przełącznik się nie różni.
compare-differ = Różnica między lewym a prawym — { $differs }.
compare-swap = Zamień strony

# Macierz wyników.
matrix-title = Macierz wyników: { $title }
matrix-back = ← Wróć do lekcji
matrix-intro = Każda kombinacja przełączników lekcji, każda uruchomiona na kilku ziarnach. Komórka pokazuje to, co dało każde ziarno, albo min–max, gdy ziarna się różnią; otwórz komórkę, by obejrzeć ten przebieg.
matrix-starting = Uruchamianie wszystkich kombinacji…
matrix-running = Przebiegi: { $done } z { $runs }… { $time }
matrix-cancelled = Macierz anulowana po { $done } z { $runs } przebiegów.
matrix-again = Oblicz ponownie
matrix-failed = Nie udało się obliczyć macierzy
matrix-summary = { $rows ->
    [one] 1 kombinacja
    [few] { $rows } kombinacje
   *[many] { $rows } kombinacji
} × { $seeds ->
    [one] 1 ziarno
    [few] { $seeds } ziarna
   *[many] { $seeds } ziaren
} ({ $list }): { $runs ->
    [one] 1 przebieg
    [few] { $runs } przebiegi
   *[many] { $runs } przebiegów
} w { $time }.
matrix-checks = sprawdzenia
matrix-checks-title = Spełnione sprawdzenia spośród tych, które mają zastosowanie, na wszystkich ziarnach
matrix-errors-label = Błędy nieprzechwycone przez blok TRY, według sesji i numeru
matrix-errors-label-exception = Błędy nieprzechwycone przez blok EXCEPTION, według sesji i numeru
matrix-errors-label-client = Błędy, które dotarły do klienta, według sesji i numeru
matrix-marks-pass = zgodnie z oczekiwaniami na każdym ziarnie
matrix-marks-fail = niezgodnie z oczekiwaniami na którymś ziarnie
matrix-marks-bug = problem z lekcji odtworzony na każdym ziarnie
matrix-marks-note = Znak mówi, czy spełniło się to, czego sprawdzenia i właściwości lekcji oczekują od komórki (właściwości są oceniane na stanie końcowym każdego przebiegu); komórka bez znaku nie ma przy tych ustawieniach oczekiwań. Tab przechodzi od wiersza do wiersza; Enter otwiera przebieg wiersza w odtwarzaczu.
matrix-mark-pass = zgodnie z oczekiwaniami
matrix-mark-fail = niezgodnie z oczekiwaniami
matrix-mark-bug = problem odtworzony
matrix-property-holds = ✓ zachowana na końcu
matrix-property-broken = ✗ złamana
matrix-verdict = { $verdict }: { $name }
matrix-open-row = { $settings }: otwórz ten przebieg w odtwarzaczu (ziarno { $seed })
matrix-errors-none = brak
matrix-no-rows = brak wierszy

block-setup = przygotowanie: wykonywane przed sesjami
block-show = tylko do pokazania, nie jest wykonywany
block-off = { $count ->
        [one] (Blok, który bierze udział tylko wtedy, gdy { $when }: nie w tym przebiegu.)
        [few] ({ $count } bloki, które biorą udział tylko wtedy, gdy { $when }: nie w tym przebiegu.)
       *[other] ({ $count } bloków, które biorą udział tylko wtedy, gdy { $when }: nie w tym przebiegu.)
    }
block-or = {" "}lub{" "}
block-and = {" "}i{" "}

# Bądź planistą i eksploracja.
schedule-can-run = może działać
schedule-run = Uruchom { $session }
schedule-run-key = Uruchom { $session } ({ $key })
schedule-next = Następna instrukcja (sesja { $session }, wiersz { $line }):
schedule-next-setup = Następna instrukcja, wiersz { $line } bloku przygotowawczego (procedura wywołana przez sesję):
schedule-goes-on = Ciąg dalszy rozpoczętej instrukcji (sesja { $session }, wiersz { $line }):
schedule-goes-on-setup = Ciąg dalszy rozpoczętej instrukcji, wiersz { $line } bloku przygotowawczego (procedura wywołana przez sesję):
schedule-finished = Wszystkie sesje skończyły, po { $count ->
    [one] 1 instrukcji
   *[other] { $count } instrukcjach
}.
schedule-none-can-run = Żadna sesja nie może działać.
schedule-who-next = Wykonane instrukcje: { $count }. Kto teraz: { $names }?
schedule-step = Krok { $step }: { $lines }
# Between two events of one step.
schedule-step-join = { "; " }
# Między dwiema nazwami sesji na liście.
schedule-names-join = { ", " }
# Pod przyciskiem sesji, którą właśnie wybrano: dalej zdarzenia tego kroku.
schedule-did = Co zrobił krok { $step }:
schedule-problem-title = Harmonogramu z linku nie udało się wykonać do końca
schedule-undo = Cofnij
schedule-keys = Klawisze: 1–{ $last } uruchamiają sesję, Backspace albo u cofa.
schedule-refused-cannot = Sesja { $session } nie może teraz działać: { $status }.
schedule-refused-finished = Sesja { $session } już się zakończyła.
schedule-refused-none = Żadna sesja nie ma klawisza { $key }.
schedule-string = Harmonogram:
schedule-string-help = (dotychczasowe wybory, tak jak odtwarza je link tej strony i lockstep run --schedule)
schedule-log = Dotychczasowe kroki
schedule-log-note = najnowsze pierwsze
schedule-log-empty = Żadna instrukcja jeszcze się nie wykonała.
schedule-log-broken = „{ $name }” złamana: { $detail }
properties = Własności
properties-note = oceniane po każdej instrukcji albo na końcu
property-holds = na razie spełniona
property-at-end = oceniana, gdy wszystkie sesje skończą
property-held = spełniona
property-broken-at = złamana w kroku { $step }: { $detail }
property-alert = Krok { $step } złamał „{ $label }”: { $detail }.
explore-title = Przeszukaj wszystkie przeploty
explore-intro = Przeszukuje każdą kolejność instrukcji sesji (pomijając stany już widziane i kolejności, które nie mogą mieć znaczenia), szukając takiej, która łamie własność.
explore-property = Własność
explore-button = Przeszukaj
explore-running = Przeszukiwanie…
explore-cancelled = Przeszukiwanie anulowane: { $progress }. Niczego nie dowiedziono.
explore-failed = Przeszukiwania nie udało się uruchomić
explore-why-end = .
explore-why = Dlaczego:
explore-open-scheduler = Otwórz w planiście
explore-open-player = Otwórz w odtwarzaczu
explore-rate = , { $rate } stanów/s
explore-progress = Zbadane stany: { $states }, głębokość { $depth } (najgłębiej { $deepest }){ $rate }
explore-bounds = do { $steps } kroków na przeplot i { $states } stanów
explore-holds = „{ $label }” jest spełniona w każdym przeplocie { $bounds }: zbadano wyczerpująco { $states } { $states ->
    [one] stan
    [few] stany
   *[many] stanów
} i { $schedules } { $schedules ->
    [one] harmonogram
    [few] harmonogramy
   *[many] harmonogramów
}, w { $took } ms.
explore-held = „{ $label }” była spełniona w każdym sprawdzonym przeplocie, ale przeszukiwanie nie było wyczerpujące: doszło do swoich granic ({ $bounds }) po { $states } { $states ->
    [one] stanie
   *[other] stanach
} i { $schedules } { $schedules ->
    [one] harmonogramie
   *[other] harmonogramach
}, potem wykonało { $walks } { $walks ->
    [one] losowe przejście
    [few] losowe przejścia
   *[many] losowych przejść
}, w { $took } ms.
explore-breaks = „{ $label }” przestaje być spełniona po { $statements } { $statements ->
    [one] instrukcji
   *[other] instrukcjach
} ({ $switches } { $switches ->
    [one] przełączeniu
   *[other] przełączeniach
} kontekstu): { $detail }. Znalezione po { $states } { $states ->
    [one] stanie
   *[other] stanach
} w { $took } ms.

# Kroki kontrprzykładu i dlaczego łamie własność. Sesje, tabele, klucze, instrukcje i
# wiersze śladu przychodzą tak, jak zapisuje je przebieg; { $did } to to, co zrobił krok.
explore-server = serwer
explore-step-runs = { $who } wykonuje { $statement }
explore-step-finishes = { $who } kończy swoją instrukcję
explore-step-reads = odczytuje { $rows }
explore-step-did = { $who } { $did }
explore-server-did = { $who } { $did }
explore-step-statement = { $did } ({ $statement })
explore-conflict = { $reader } odczytuje { $row }, zanim { $verb } sesji { $writer } go zapisze; obie potem go zapisują
explore-conflict-unnamed = { $reader } odczytuje { $row }, zanim sesja { $writer } go zapisze; obie potem go zapisują
explore-a-row = wiersz

schedule-title = Bądź planistą: { $title }
schedule-back = Wróć do odtwarzacza
schedule-intro = Sam wybierasz, która sesja wykonuje następną instrukcję, jedna instrukcja naraz, bez zegara, który zdecyduje za ciebie. Znajdź kolejność, która łamie własności lekcji, albo pozwól, by eksploracja przeszukała wszystkie kolejności.
why-matrix-yes = zgodne
why-matrix-no = niezgodne

# Odcinki torów i znaczniki, do podpowiedzi i czytników ekranu.
seg-runs = { $session } działa { $span }
seg-sleeps = { $session } śpi { $span }
seg-delayed = { $session } jest opóźniona { $span }: jej konsumpcja czeka na wiersz w tabeli kolejkowej { $table }
seg-waits = { $session } czeka na { $whom } { $span }, na blokadę { $resource }
seg-mixed = { $session }, { $span }: krótkie odcinki ({ $count }): działa { $running }, śpi { $sleeping }, czeka { $waiting } (oczekiwania: { $waits })
mark-error = dostaje błąd { $number }
mark-skipped = pomija zablokowany wiersz
mark-deadlock = jest ofiarą zakleszczenia
mark-result = dostaje wynik
mark-commit = zatwierdza
mark-rollback = wycofuje
mark-call = wywołuje system zewnętrzny
mark-times = { $session } { $what } (razy: { $count }, od { $time })
mark-at = { $session } { $what } w chwili { $time }

# Słowa anomalii (znaczniki anomalii, nawigacja po anomaliach, tytuł panelu „Dlaczego”).
anomaly-deadlock-victim = ofiara zakleszczenia
anomaly-error = błąd { $number }
anomaly-repeats = { $table } ({ $key }) powtarza { $values } z { $table } ({ $first })
anomaly-updated-to-repeat = { $table } ({ $key }) po aktualizacji powtarza { $values } z { $table } ({ $first })
anomaly-unmatched = { $table } ({ $key }) ma { $values }; żaden wiersz { $other } tego nie ma
anomaly-unmatched-error = { $unmatched }; potem { $session } dostała błąd { $number }
anomaly-unmatched-removed = { $unmatched }; sesja { $by } usunęła { $other } ({ $key })
anomaly-lost = { $table } ({ $keys }) skonsumowane; potem błąd { $number }; potem zatwierdzenie
anomaly-lost-returned = { $table } ({ $keys }) skonsumowane i zwrócone jako { $row }; potem błąd { $number }; potem zatwierdzenie
anomaly-kept = { $table } ({ $keys }) zapisane i zatwierdzone; potem błąd { $number }

# Dziennik zdarzeń, graf oczekiwań, tabele i miejsca w kodzie zależne od przełączników.
log-note = { $count } w tym przebiegu; kliknij, by przejść
log-earlier = … { $count } { $count ->
    [one] wcześniejsze zdarzenie
    [few] wcześniejsze zdarzenia
   *[many] wcześniejszych zdarzeń
}
log-later = … { $count } { $count ->
    [one] późniejsze zdarzenie
    [few] późniejsze zdarzenia
   *[many] późniejszych zdarzeń
}
waits-sentence = { $waiter } czeka na { $holder } ({ $label })
table-holds = { $session } trzyma { $mode }
table-search-placeholder = Znajdź wiersz: id lub wartość
row-uncommitted = ✎ { $session }, niezatwierdzone
row-uncommitted-title = zmienione przez { $session }, jeszcze niezatwierdzone
code-nothing-for = (nic tu przy przełączniku { $toggle })
code-line = wiersz { $line }
row-skipped = { $session } pominęła go ({ $clause }): { $holder } trzyma { $held }, { $session } potrzebuje { $wanted }
matrix-seed-reading = ziarno { $seed }: { $reading }

# Wbudowane własności harmonogramu i przeszukiwania (lekcje deklarują własne).
property-no-errors = Żadna sesja nie kończy się błędem
property-no-deadlock = Bez zakleszczenia
# Between two sentences of one paragraph (Japanese writes none after 。).
sentence-gap = { " " }
