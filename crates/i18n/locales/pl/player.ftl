# Strona lekcji i odtwarzacz: przełączniki, sterowanie, narracja, ziarno, panele.

player-label = Odtwarzacz
all-lessons = ← Wszystkie lekcje
open-scheduler = Bądź planistą
open-scheduler-title = Sam wybierz, która sesja wykonuje każdą instrukcję, albo przeszukaj wszystkie kolejności
open-matrix = Macierz wyników
open-matrix-title = Wszystkie kombinacje przełączników dla kilku ziaren, w jednej tabeli
open-exercise = Rozwiąż w edytorze
open-exercise-title = Ta lekcja jest ćwiczeniem: edytor, cele i przycisk Sprawdź są na stronie ćwiczenia
dock-label = Tabele, wynik, zdarzenia i tekst lekcji
dock-tabs-label = Panele
tab-lesson = Lekcja
tab-tables = Tabele
tab-outcome = Wynik
tab-events = Zdarzenia
predict-switch = Pytaj mnie o przewidywanie przed uruchomieniem ({ $count ->
    [one] 1 pytanie
    [few] { $count } pytania
   *[many] { $count } pytań
})

compare-title = Porównaj ten przebieg z ustawieniem „{ $toggle }” = { $value }: obie osie czasu na jednej skali, jedna nad drugą
compare-label = Porównaj z ustawieniem „{ $toggle }” = { $value }

home-label = Wróć na początek (Home)
home-title = Początek (Home)
step-back-label = Cofnij o jedno zdarzenie (←)
step-back-title = Krok wstecz (←)
play-label = Odtwórz (spacja)
pause-label = Pauza (spacja)
replay-label = Od nowa (spacja)
play = Odtwórz
pause = Pauza
replay = Od nowa
step-forward-label = Naprzód o jedno zdarzenie (→)
step-forward-title = Krok naprzód (→)
end-label = Skocz na koniec (End)
end-title = Koniec (End)
speed = Tempo
speed-title = Przy 1× cztery zdarzenia na sekundę; cichy odcinek do ćwierć sekundy trwa tyle co naprawdę, dłuższy jest skracany (najwyżej do 2 s). Zegar pokazuje czas wirtualny.
position-end = z { $end }
position-event = zdarzenie { $event } z { $events }
virtual-time = Czas wirtualny
idle = » cisza przez { $span } — odtwarzana szybciej
idle-title = Odtwarzanie przechodzi przez ciche odcinki szybciej niż w czasie rzeczywistym

seed = Ziarno
seed-run = Uruchom
seed-next = Następne ziarno
seed-next-title = Uruchom następne ziarno
seed-random = Inny przeplot
seed-random-title = Uruchom losowe ziarno: sesje przeplotą się inaczej
seed-reset = Ziarno lekcji ({ $seed })
seed-help = Ziarno decyduje o przeplocie sesji; to samo ziarno odtwarza ten sam przebieg.
seed-invalid = Ziarno to liczba całkowita od 0 wzwyż.

narration-start = Początek: skrypt przygotowawczy się wykonał, żadna sesja jeszcze nie ruszyła. Naciśnij Odtwórz albo →, by iść krok po kroku.
narration-start-touch = Początek: skrypt przygotowawczy się wykonał, żadna sesja jeszcze nie ruszyła. Dotknij Odtwórz albo ▶|, by iść krok po kroku.
narration-event = { $time } · zdarzenie { $event } z { $events }: { $line }

run-progress = { $steps } { $steps ->
    [one] krok
    [few] kroki
   *[many] kroków
} silnika, { $time } czasu wirtualnego
cancel = Anuluj
cancelled-title = Ten przebieg został anulowany
cancelled-detail = Wykonał { $steps } { $steps ->
    [one] krok
    [few] kroki
   *[many] kroków
} silnika, { $time } czasu wirtualnego.
run-again = Uruchom ponownie
run-error-title = Tego ustawienia nie da się zasymulować
run-error-hint = Przestaw przełącznik z powrotem, by zobaczyć przebieg.

url-warnings-title = Nie udało się dokładnie odtworzyć tego linku
schedule-note-before = Ten przebieg odtwarza harmonogram{" "}
schedule-note-untimed = {" "}bez czasu (każda granica instrukcji jest wyborem)
schedule-note-after = ; po jego końcu wybiera planista z ziarnem.
schedule-note-stopped = ; przebieg zatrzymuje się tam, gdzie harmonogramu nie da się wykonać.
schedule-note-back = Wróć do przebiegu z ziarnem
schedule-problem = Nie udało się wykonać harmonogramu: { $problem }.
conflict-step = Krok { $step } w konflikcie: { $line }
conflict-step-at = { $label }, w chwili { $at }
link-bad-setting = Link prosi o `{ $setting }`, ale: { $error }{ $default }.
link-showing-default = ; pokazane `{ $setting }`
