# „Dlaczego”: reguła stojąca za czekaniem, pominięciem, błędem albo anomalią. Sesje,
# tabele, klucze, tryby blokad, instrukcje i numery błędów przychodzą tak, jak nazywa
# je przebieg.

why-title = Dlaczego: { $label }
why-sentence = { $text }.
why-period = .
why-in-statement = , w { $statement }
why-statement-aside = {" "}({ $statement })
why-statement = jej { $label }, wiersz { $line }
why-statement-in-proc = jej { $label } w { $proc }, wiersz { $line }
why-meaning = : { $meaning }.
why-verb-wrote = zapisała

why-wait-title = Dlaczego { $session } czeka
why-wait-asks = Sesja { $session } prosi o blokadę { $mode } na { $resource }.
why-wait-asks-in = Sesja { $session } prosi o blokadę { $mode } na { $resource } ({ $statement }).
why-wait-queued = Wcześniejsze żądania do { $resource } stoją w kolejce, a blokady są przyznawane po kolei, więc { $session } czeka na swoją kolej.
why-wait-behind = Wcześniejsze żądanie { $queued } o { $wanted } na { $resource }{ $aside } wciąż czeka. Blokady są przyznawane po kolei, a { $mode } nie jest zgodna z { $wanted }: { $session } czeka za { $queued }.
why-wait-incompatible = { $mode } nie jest zgodna z { $held }: { $session } czeka, aż { $holder } ją zwolni.

why-refused-title = Dlaczego { $session } dostała odmowę
why-refused-asks = Sesja { $session } prosi o blokadę { $mode } na { $resource } przez { $function }, które nigdy nie czeka.
why-refused-incompatible = { $mode } nie jest zgodna z { $held }, którą trzyma { $holder }: { $function } od razu zwraca false, a { $session } idzie dalej bez blokady.
why-refused-behind = Wcześniejsze żądanie { $queued } o { $wanted } na { $resource }{ $aside } wciąż czeka. Blokady są przyznawane po kolei, a { $mode } nie jest zgodna z { $wanted }: { $function } od razu zwraca false, zamiast czekać za { $queued }, a { $session } idzie dalej bez blokady.
why-holds-since = { $holder } trzyma { $mode } na { $resource } od { $time }
why-holds = { $holder } trzyma { $mode } na { $resource }.
why-key-check = Tę blokadę założyło sprawdzenie klucza obcego { $constraint } w sesji { $holder }: wiersza, do którego odwołuje się nowy wiersz, nie można usunąć ani zmienić jego klucza, dopóki transakcja { $holder } się nie skończy.

why-skip-title = Dlaczego { $session } pominęła { $table } { $key }
why-skip-rule = Sesja { $session } pominęła { $table } { $key }: { $clause } pomija wiersze zablokowane w trybie, z którym jej blokada jest niezgodna.
why-skip-holder = { $holder } trzyma na nim { $held }; { $session } potrzebuje { $wanted }, która jest niezgodna, więc czyta dalej zamiast czekać.

why-error-title = Dlaczego { $session } dostała błąd { $number }
why-error-in = Sesja { $session } dostała go w { $statement }.
why-error-rethrown = THROW bez argumentów zgłasza ponownie, bez zmian, błąd złapany przez blok CATCH: pochodzi on z { $statement }, a SQL Server podaje wiersz tamtej instrukcji, nie wiersz THROW.
why-error-deadlock = Monitor zakleszczeń wybrał { $victim } jako ofiarę cyklu { $cycle }.
why-error-serialization = Sesja { $session } czyta z migawki zrobionej przy pierwszej instrukcji swojej transakcji. Inna transakcja zmieniła ten wiersz i zatwierdziła zmianę po tej migawce, a na tym poziomie izolacji transakcja nie może zablokować ani zmienić takiego wiersza: kończy się błędem, zamiast nadpisać zmianę, której nie widziała. Całą transakcję trzeba powtórzyć.
why-error-rw-dependencies = Transakcja sesji { $session } jest SERIALIZABLE: baza śledziła, co czytała i co zapisała. Inna transakcja serializowalna zmieniła wiersze, które { $session } przeczytała, a { $session } zmieniła wiersze przeczytane przez tamtą (albo trzecia domknęła krąg): żadna kolejność wykonania ich jedna po drugiej nie daje tych wyników, więc jedna z nich zostaje anulowana, tu transakcja sesji { $session }. Całą transakcję trzeba powtórzyć, także gdy zawiódł sam COMMIT.
why-error-readpast-level = READPAST wolno użyć tylko przy READ COMMITTED albo REPEATABLE READ: przy SNAPSHOT lub SERIALIZABLE (albo z NOLOCK lub HOLDLOCK) SQL Server odrzuca instrukcję, zanim przeczyta choć jeden wiersz, niezależnie od danych.
why-error-set-options = Zapis do tabeli z indeksem filtrowanym (albo z widokiem indeksowanym lub indeksem na kolumnie wyliczanej) wymaga między innymi QUOTED_IDENTIFIER ON. Procedura działa z takim QUOTED_IDENTIFIER, z jakim ją utworzono, cokolwiek ustawi wywołujący, więc SET przed wywołaniem nie pomoże: procedurę trzeba utworzyć na nowo z ON.
why-error-unique = Wiersz z tym kluczem już jest (inna transakcja wstawiła go pierwsza; wstawienie, które zastało go niezatwierdzonym, czekało na to zatwierdzenie): indeks unikalny odrzuca drugi.
why-error-delayed-limit = Teradata pozwala, by w stanie opóźnienia SELECT AND CONSUME na pustej kolejce czekało najwyżej 20 % sesji silnika parsującego (24 z domyślnych 120); konsumpcja sesji { $session } byłaby kolejną, więc jej transakcja zostaje przerwana. Komunikat mówi o limicie instrukcji konsumujących, ale przekroczony jest limit sesji opóźnionych.
why-error-no-transaction = END TRANSACTION zamyka to, co otworzyło BEGIN TRANSACTION; transakcja sesji { $session } już się skończyła (przerwanie ją kończy i wycofuje), więc to ET nie ma czego zamknąć.
why-error-caught = Blok TRY go przechwycił: skrypt idzie dalej w bloku CATCH.
why-error-uncaught = Żaden blok TRY go nie przechwycił, więc dotarł do klienta.
why-error-caught-exception = Blok EXCEPTION go przechwycił: funkcja idzie dalej w jego obsłudze.
why-error-uncaught-exception = Żaden blok EXCEPTION go nie przechwycił, więc dotarł do klienta.
why-error-reached-client = Nic w żądaniu go nie obsługuje: BTEQ zgłasza błąd i wysyła następne żądanie skryptu.

why-deadlock-title = Dlaczego { $victim } została ofiarą zakleszczenia
why-deadlock-circle = { $cycle } czekają na siebie w kółko: każda czeka na blokadę, którą trzyma następna, więc żadna nie może ruszyć.
why-deadlock-victim = Monitor zakleszczeń przerywa koło, wycofując jedną transakcję, wybraną według DEADLOCK_PRIORITY, a potem najmniejszej pracy do cofnięcia: transakcję sesji { $victim }. { $victim } dostaje błąd 1205.

why-timeout-title = Dlaczego { $session } przestała czekać
why-timeout = Sesja { $session } czekała { $waited } na { $resource }, tyle, ile pozwala jej { $setting }, i zrezygnowała: jej instrukcja kończy się błędem.
why-nowait-title = Dlaczego { $session } nie czekała
why-nowait = Sesja { $session } prosi o blokadę na { $resource } z NOWAIT: gdy inna sesja trzyma blokadę, która się z nią kłóci, instrukcja od razu kończy się błędem zamiast czekać.
why-applock-timeout-title = Dlaczego { $session } nie dostała blokady aplikacyjnej
why-applock-timeout = sp_getapplock sesji { $session } prosiła o { $mode } na { $resource }, a tę blokadę trzyma { $holders } w trybie, który jej nie dopuszcza. Najpierw minął jej @LockTimeout, więc wywołanie zwraca -1: żaden błąd nie jest zgłaszany i nic nie jest wycofywane; co dalej, rozstrzyga kod, który czyta zwróconą wartość.
why-applock-someone = inna sesja

why-dup-again = { $second } { $verb } { $values } ponownie ({ $table } { $key }{ $update }): { $first } { $first_read } i { $verb } go po { $first_write }; { $second } { $second_read }
why-dup-by-update = , przez UPDATE
# Masculine, as the lesson's verb beside it (przejął, wysłał: the worker, the client).
why-dup-read-at = odczytał go w chwili { $time }
why-dup-no-read = nie odczytał go wcześniej
why-dup-before-commit = , zanim zapis sesji { $first } został zatwierdzony w chwili { $time }.
why-dup-after-commit = , gdy zapis sesji { $first } został już zatwierdzony w chwili { $time }.
why-dup-uncommitted = , gdy zapis sesji { $first } nie był zatwierdzony.
why-dup-read-was = Odczytem sesji { $session } była { $statement }
why-dup-gap = Odczyt i zapis w dwóch instrukcjach zostawiają lukę: druga sesja odczytała wiersz, zanim zapis pierwszej został zatwierdzony, i każda działała na podstawie tego, co odczytała.
why-dup-both = { $table } ({ $first_key }) i { $table } ({ $key }) mają oba { $values }.

why-unmatched = { $session } { $verb } { $table } { $key } ({ $values }) w chwili { $time }; na końcu przebiegu żaden wiersz { $match_table } nie ma { $wanted }.
why-unmatched-error = Potem { $session } dostała błąd { $number } w chwili { $time }
why-unmatched-unrecorded = , zanim zapisał to wiersz { $match_table }; to, co zrobiono poza bazą, zostaje zrobione.
why-unmatched-finished = Sesja { $session } skończyła bez zapisania wiersza { $match_table }, który by to odnotował.
why-unmatched-nobody = Z samej tabeli { $match_table } nikt nie pozna, że { $table } { $key } się wydarzyło.
why-unmatched-removed = Sesja { $by } usunęła wiersz { $match_table } z { $wanted } w chwili { $time }, już po tym wstawieniu, i nic jej nie zatrzymało: { $table } { $key } wskazuje teraz na wiersz, którego nie ma.

why-lost-consumed = Sesja { $session } skonsumowała { $table } { $key } w chwili { $time }
why-lost-got = {" "}i dostała { $row }
why-lost-more = , oraz { $count ->
    [one] jeszcze 1 wiersz
    [few] jeszcze { $count } wiersze
   *[many] jeszcze { $count } wierszy
}
why-lost-meaning = działanie wykonane dla wiersza się nie powiodło
why-lost-committed = Sesja { $session } zatwierdziła transakcję w chwili { $time }, więc konsumpcja jest trwała: wiersza nie ma już w { $table } i nic nie zapisuje, co z nim zrobiono.
why-lost-rollback = ROLLBACK cofnąłby konsumpcję razem z nieudanym działaniem i oddałby wiersz do kolejki.
why-then-error = Potem { $session } dostała błąd { $number } w chwili { $time }

why-kept-wrote = { $session } { $verb } { $table } { $keys }
why-kept-more = {" "}i { $count ->
    [one] jeszcze 1 wiersz
    [few] jeszcze { $count } wiersze
   *[many] jeszcze { $count } wierszy
}
why-kept-at = {" "}po { $time }
why-kept-committed = ; ta zmiana została zatwierdzona w chwili { $time }.
why-kept-meaning = praca, którą te wiersze odnotowują, się nie powiodła
why-kept-stay = Wiersze w { $table } zostają tak, jak je zapisano, więc mówią, że praca została wykonana: nic ich nie oznacza do ponownej próby.
