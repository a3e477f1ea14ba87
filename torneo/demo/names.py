"""Spanish first names, surnames and peñas for the demo tournament."""

FIRST_NAMES = [
    "Antonio", "José", "Manuel", "Francisco", "Juan", "David", "José Luis", "Javier", "Carlos", "Jesús",
    "Alejandro", "Miguel", "Rafael", "Pedro", "Ángel", "Pablo", "Fernando", "Luis", "Sergio", "Jorge",
    "Alberto", "Álvaro", "Diego", "Adrián", "Raúl", "Enrique", "Ramón", "Vicente", "Iñaki", "Andoni",
    "María", "Carmen", "Ana", "Isabel", "Laura", "Cristina", "Marta", "Lucía", "Pilar", "Elena",
    "Rosa", "Teresa", "Begoña", "Nerea", "Maite", "Ainhoa", "Raquel", "Patricia", "Sonia", "Mercedes",
]
SURNAMES = [
    "García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Martín",
    "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso", "Gutiérrez",
    "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Ramírez", "Serrano", "Blanco", "Molina",
    "Morales", "Suárez", "Ortega", "Delgado", "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Iglesias",
    "Echeverría", "Goikoetxea", "Etxeberria", "Arregui", "Zubizarreta", "Aguirre", "Urrutia", "Olano",
]
CLUBS = [
    "Peña El Órdago", "Club Mus Chamberí", "Peña Los Amarracos", "Casa de Navarra", "Peña La Real",
    "Club Deportivo Vallecas", "Hogar del Jubilado Tetuán", "Peña Duples", "Euskal Etxea Madrid", "",
]
